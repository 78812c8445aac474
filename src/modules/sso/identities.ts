// Who a verified sign-on is: the person already linked to the provider's (issuer, subject); else the person
// with that email, when the provider vouches for it (email_verified); else a new person (just in time).
// The domain rule and the email rule are checked before anyone is found or made.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AppContext } from "../../context";
import { accounts, ssoIdentities } from "../../db/schema";
import { newId } from "../../lib/secrets";
import { personWrites, type Account } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { acceptPendingInvitations } from "../invitations/service";
import { findByEmail, normalizeEmail } from "../people/passwords";
import type { SsoProvider } from "./providers";
import { roleFromClaims, type SsoRole } from "./roles";
import { SsoFailure } from "./failure";

export interface SignOnClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  [claim: string]: unknown;
}

export interface SignOnPerson {
  account: Account;
  created: boolean;
  role: SsoRole | null;
}

export async function personForSignOn(ctx: AppContext, provider: SsoProvider, issuer: string, claims: SignOnClaims): Promise<SignOnPerson> {
  const email = normalizedEmailClaim(claims);
  const verified = claims.email_verified === true;
  checkDomainRule(provider, email, verified);
  const role = roleFromClaims(provider, claims);
  const linked = await ctx.db.query.ssoIdentities.findFirst({ where: and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, claims.sub)) });
  if (linked) return { account: await refreshIdentity(ctx, linked, email, role), created: false, role };
  if (!email) throw new SsoFailure("no_email", "sso_refused", "The provider did not say this person's email, so no person here can be matched or made.");
  const holder = await findByEmail(ctx.db, email);
  if (holder) {
    // Linking to someone who already signs in here: only on the provider's word that the email is theirs.
    if (!verified) throw new SsoFailure("email_not_verified", "sso_refused", "The provider has not verified this email, so it cannot sign in to the person who has it here.");
    await ctx.db.insert(ssoIdentities).values({ issuer, subject: claims.sub, accountId: holder.id, email, role, lastSignInAt: Date.now() });
    return { account: await applyRole(ctx, holder, role, issuer, claims.sub), created: false, role };
  }
  // An email the provider has not verified is not recorded as the person's: nobody can claim an address
  // here (and with it, later, an invitation or a password link sent to it) by typing it at a provider.
  const account = await createPersonAtFirstSignIn(ctx, provider, issuer, claims, verified ? email : null, role);
  return { account, created: true, role };
}

function checkDomainRule(provider: SsoProvider, email: string | null, verified: boolean): void {
  if (!provider.allowedDomains.length) return;
  if (!email) throw new SsoFailure("no_email", "sso_refused", "The provider did not say this person's email, and only some email domains may sign in here.");
  if (!verified) throw new SsoFailure("email_not_verified", "sso_refused", "The provider has not verified this email, and only verified emails of some domains may sign in here.");
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (!provider.allowedDomains.includes(domain)) throw new SsoFailure("email_domain_not_allowed", "sso_refused", `Email addresses at ${domain} may not sign in here.`);
}

/**
 * Just-in-time creation: the first sign-on of someone unknown makes the person and links the identity in
 * one batch (nothing half-made).
 * Invitations still open for a verified email are then accepted for the new person (teams, shares).
 */
async function createPersonAtFirstSignIn(ctx: AppContext, provider: SsoProvider, issuer: string, claims: SignOnClaims, email: string | null, role: SsoRole | null): Promise<Account> {
  const id = newId("acc");
  const name = displayNameOf(claims, email);
  const isAdmin = role === "admin";
  try {
    await ctx.db.batch([
      ...personWrites(ctx.db, { id, name, planId: ctx.config.defaultPlan, email, isAdmin }),
      ctx.db.insert(ssoIdentities).values({ issuer, subject: claims.sub, accountId: id, email: normalizedEmailClaim(claims), role, adminGranted: isAdmin, lastSignInAt: Date.now() }),
    ]);
  } catch (error) {
    // Two first sign-ins of one person at once: the other one made them; this one is a second sign-in.
    const linked = await ctx.db.query.ssoIdentities.findFirst({ where: and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, claims.sub)) });
    if (linked) return (await ctx.db.query.accounts.findFirst({ where: eq(accounts.id, linked.accountId) }))!;
    throw error;
  }
  await recordAudit(ctx.db, { action: "person.created", actorId: id, actorLabel: email ?? name, target: { kind: "account", id }, details: { method: "oidc", provider: provider.id, issuer, isAdmin } }, ctx.log);
  const person = (await ctx.db.query.accounts.findFirst({ where: eq(accounts.id, id) }))!;
  await acceptPendingInvitations(ctx.db, person, ctx.log);
  return person;
}

const normalizedEmailClaim = (claims: SignOnClaims) =>
  typeof claims.email === "string" && claims.email.includes("@") && claims.email.length <= 254 ? normalizeEmail(claims.email) : null;

const displayNameOf = (claims: SignOnClaims, email: string | null) =>
  (typeof claims.name === "string" && claims.name.trim().slice(0, 120)) ||
  (typeof claims.preferred_username === "string" && claims.preferred_username.trim().slice(0, 120)) ||
  (email ?? normalizedEmailClaim(claims) ?? claims.sub).split("@")[0]!.slice(0, 120);

async function refreshIdentity(ctx: AppContext, identity: typeof ssoIdentities.$inferSelect, email: string | null, role: SsoRole | null): Promise<Account> {
  await ctx.db
    .update(ssoIdentities)
    .set({ email: email ?? identity.email, role, lastSignInAt: Date.now() })
    .where(and(eq(ssoIdentities.issuer, identity.issuer), eq(ssoIdentities.subject, identity.subject)));
  const account = await ctx.db.query.accounts.findFirst({ where: eq(accounts.id, identity.accountId) });
  if (!account) throw new SsoFailure("account_missing", "sso_failed", "The person linked to this sign-on no longer exists here.");
  return applyRole(ctx, account, role, identity.issuer, identity.subject, identity.adminGranted);
}

/**
 * The mapping makes a person a server admin when the claim says so, and takes back only what it gave: an
 * admin made here (the owner, say) stays one whatever the provider's groups say.
 */
async function applyRole(ctx: AppContext, account: Account, role: SsoRole | null, issuer: string, subject: string, granted = false): Promise<Account> {
  let isAdmin: boolean | null = null;
  if (role === "admin" && !account.isAdmin) isAdmin = true;
  if (role === "member" && account.isAdmin && granted) isAdmin = false;
  if (isAdmin === null) return account;
  const where = and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject));
  const [, [updated]] = await ctx.db.batch([
    ctx.db.update(ssoIdentities).set({ adminGranted: isAdmin }).where(where),
    ctx.db.update(accounts).set({ isAdmin }).where(eq(accounts.id, account.id)).returning(),
  ]);
  await recordAudit(ctx.db, { action: "person.role_changed", actorId: null, actorLabel: `single sign-on (${issuer})`, target: { kind: "account", id: account.id }, details: { isAdmin, method: "oidc" } }, ctx.log);
  return updated ?? account;
}

/** The role the provider's claims gave this person at their latest sign-on; null when none was mapped. For team roles. */
export async function ssoRoleOf(db: Db, accountId: string): Promise<SsoRole | null> {
  const row = await db.query.ssoIdentities.findFirst({ where: eq(ssoIdentities.accountId, accountId), orderBy: desc(ssoIdentities.lastSignInAt) });
  return row?.role ?? null;
}
