// `brainbox users set-password` and `users reset-link`: the operator's way in when nobody can sign in yet
// (or the owner forgot the password). Both are in the audit log, with no actor (the command line).
import type { Config } from "../../config";
import type { RootDb } from "../../db/client";
import { AppError } from "../../lib/errors";
import { getAccount } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { checkEmail, findByEmail, setPassword } from "./passwords";
import { resetLink } from "./links";
import { closeAllSessions } from "./sessions";

export interface UsersCommand {
  command: "set-password" | "reset-link";
  email: string;
  password: string;
  accountId?: string;
}

/** Runs the command; answers the line to print. */
export async function usersCommand(db: RootDb, config: Config, input: UsersCommand): Promise<string> {
  const email = checkEmail(input.email);
  const person = input.accountId ? await getAccount(db, input.accountId) : await findByEmail(db, email);
  if (!person) throw new AppError("not_found", `Nobody signs in with ${email}: pass --account ACCOUNT_ID (see accounts list) to give that account this email`);
  if (input.command === "reset-link") {
    const publicUrl = () => config.publicUrl ?? `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;
    const link = await resetLink({ db, config, publicUrl }, person.id, null);
    await recordAudit(db, { action: "password.reset_requested", actorLabel: "command line", target: { kind: "account", id: person.id } });
    return `Password reset link for ${person.email ?? person.name} (one use, until ${link.expiresAt}): ${link.url}`;
  }
  if (!input.password) throw new AppError("invalid_request", "Send the new password on stdin (its first line)", { field: "password" });
  const updated = await setPassword(db, person.id, input.password, email);
  await closeAllSessions(db, person.id);
  await recordAudit(db, { action: "password.set", actorLabel: "command line", target: { kind: "account", id: person.id }, details: { via: "cli" } });
  return `Password set for ${updated.email} (${updated.id}); their other sessions have ended.`;
}
