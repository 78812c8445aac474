// An invited colleague without an account (issue 56): the link's token is the credential. What the invitation
// screen shows before sign-in (who invited, to what, for which email) is read by token; a pending invitation
// whose email has no account yet makes that person (with their own team and a password), accepts it for them
// and opens their session. An email that already has an account signs in and accepts instead.
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { accounts, brains, teams } from "../../db/schema";
import { clientAddressOf } from "../../http/client-address";
import { AppError, invalid } from "../../lib/errors";
import { newId } from "../../lib/secrets";
import { personWrites, type Account } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { checkNewPassword, findByEmail, hashPassword } from "../people/passwords";
import { openSession, type OpenedSession } from "../people/sessions";
import { acceptInvitation, invitationByToken, invitationView, unusable, type Invitation } from "./service";

/** Only what the invited person needs to decide: never the inviter's email, ids of other people, or the team's members. */
export async function checkInvitation(ctx: AppContext, token: string) {
  const row = await invitationByToken(ctx.db, token);
  const [inviter, team, brain, holder] = await Promise.all([
    row.invitedBy ? ctx.db.query.accounts.findFirst({ where: eq(accounts.id, row.invitedBy), columns: { name: true } }) : undefined,
    row.teamId ? ctx.db.query.teams.findFirst({ where: eq(teams.id, row.teamId), columns: { name: true } }) : undefined,
    row.brainId ? ctx.db.query.brains.findFirst({ where: eq(brains.id, row.brainId), columns: { name: true } }) : undefined,
    findByEmail(ctx.db, row.email),
  ]);
  const view = invitationView(row);
  return {
    invitation: {
      email: view.email,
      status: view.status,
      expiresAt: view.expiresAt,
      invitedBy: inviter ? { name: inviter.name } : null,
      team: view.team ? { ...view.team, name: team?.name ?? null } : null,
      brain: view.brain ? { ...view.brain, name: brain?.name ?? null } : null,
    },
    accountExists: holder !== undefined,
  };
}

export interface SignUpInput {
  token: string;
  name: string;
  password: string;
}

/** Makes the invited person, accepts the invitation for them and opens their session (method "password"). */
export async function signUpWithInvitation(ctx: AppContext, request: Request, input: SignUpInput): Promise<{ opened: OpenedSession; account: Account; invitation: ReturnType<typeof invitationView> }> {
  const row = await invitationByToken(ctx.db, input.token);
  const refusal = unusable(row, Date.now());
  if (refusal) throw refusal;
  if (await findByEmail(ctx.db, row.email)) throw accountExists();
  checkNewPassword(input.password);
  const name = input.name.trim();
  if (!name) throw invalid("name", "Say your name");
  const account = await createInvitedPerson(ctx, row, name, await hashPassword(input.password));
  const ip = clientAddressOf(request);
  await recordAudit(ctx.db, { action: "person.created", actorId: account.id, actorLabel: row.email, target: { kind: "account", id: account.id }, ip, details: { method: "invitation", invitation: row.id } }, ctx.log);
  await recordAudit(ctx.db, { action: "password.set", actorId: account.id, actorLabel: row.email, target: { kind: "account", id: account.id }, ip, details: { via: "invitation" } }, ctx.log);
  const invitation = await acceptInvitation(ctx.db, account, input.token, ctx.log);
  return { opened: await openSession(ctx, account.id, request, { method: "password", details: { via: "invitation" } }), account, invitation };
}

const accountExists = () =>
  new AppError("conflict", "This email already has an account here: sign in, then accept the invitation", { reason: "account_exists" });

/** The person and their own team in one batch, the password hash with them; a sign-up of the same email at once loses to the other. */
async function createInvitedPerson(ctx: AppContext, row: Invitation, name: string, passwordHash: string): Promise<Account> {
  const id = newId("acc");
  try {
    await ctx.db.batch([
      ...personWrites(ctx.db, { id, name: name.slice(0, 120), planId: ctx.config.defaultPlan, email: row.email }),
      ctx.db.update(accounts).set({ passwordHash }).where(eq(accounts.id, id)),
    ]);
  } catch (error) {
    if (await findByEmail(ctx.db, row.email)) throw accountExists();
    throw error;
  }
  return (await ctx.db.query.accounts.findFirst({ where: eq(accounts.id, id) }))!;
}
