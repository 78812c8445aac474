// Sign-in with an email and a password. One answer for every wrong pair (unknown email, wrong password, no
// password set, a deactivated person): 401 `invalid_credentials`, after the same argon2 work. Failures are
// slowed per (email, address) and per address (throttle.ts), never locked.
import type { AppContext } from "../../context";
import { clientAddressOf } from "../../http/client-address";
import { AppError } from "../../lib/errors";
import type { Account } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { findByEmail, normalizeEmail, passwordMatches } from "./passwords";
import { openSession, type OpenedSession } from "./sessions";
import type { SignInThrottle } from "./throttle";

export const WRONG_CREDENTIALS = "That email and password do not match an account here.";

export async function signInWithPassword(
  ctx: AppContext,
  throttle: SignInThrottle,
  request: Request,
  input: { email: string; password: string },
): Promise<{ opened: OpenedSession; account: Account }> {
  const email = normalizeEmail(input.email);
  const address = clientAddressOf(request) ?? "unknown";
  const wait = throttle.waitSeconds(email, address);
  if (wait > 0)
    throw new AppError("too_many_attempts", `Too many failed sign-ins from here; try again in ${wait} s`, { retryAfter: wait, headers: { "retry-after": String(wait) } });
  const account = await findByEmail(ctx.db, email);
  const matches = await passwordMatches(input.password, account?.passwordHash);
  if (!account || !matches || account.deactivatedAt !== null) {
    throttle.failed(email, address);
    await recordAudit(
      ctx.db,
      {
        action: "session.sign_in_failed",
        actorId: null,
        actorLabel: email,
        // The person whose email was tried sees the attempt in their own log.
        target: account ? { kind: "account", id: account.id } : undefined,
        ip: address,
        details: { email, method: "password" },
      },
      ctx.log,
    );
    throw new AppError("invalid_credentials", WRONG_CREDENTIALS);
  }
  throttle.succeeded(email, address);
  return { opened: await openSession(ctx, account.id, request, { method: "password" }), account };
}
