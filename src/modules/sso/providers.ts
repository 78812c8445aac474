// The single sign-on providers this server offers, from configuration. One today (BRAINBOX_OIDC_*); each is
// named by an id that its routes and its flows carry, so a second one is a second entry, not a rewrite.
import type { Config } from "../../config";

export interface SsoProvider {
  /** In the routes (`/auth/<id>/start`) and on every flow and audit event. */
  id: string;
  /** "Sign in with ‹name›". */
  name: string;
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE alone proves the code is ours). */
  clientSecret?: string;
  scopes: string;
  /** Lower-cased email domains allowed to sign in; empty = any. */
  allowedDomains: string[];
  /** The claim whose values map to the server admin role, and those values; no values = no mapping. */
  adminClaim: string;
  adminValues: string[];
  timeoutMs: number;
}

export function ssoProvidersOf(config: Config): SsoProvider[] {
  if (!config.oidcIssuer || !config.oidcClientId) return [];
  return [
    {
      id: "oidc",
      name: config.oidcName,
      issuer: config.oidcIssuer,
      clientId: config.oidcClientId,
      clientSecret: config.oidcClientSecret,
      scopes: config.oidcScopes,
      allowedDomains: config.oidcAllowedDomains.map((d) => d.toLowerCase().replace(/^@/, "")),
      adminClaim: config.oidcAdminClaim,
      adminValues: config.oidcAdminValues,
      timeoutMs: config.oidcTimeoutMs,
    },
  ];
}

/** Where the provider sends the browser back: fixed, registered at the provider. */
export const callbackUrl = (publicUrl: string, provider: SsoProvider) => `${publicUrl}/auth/${provider.id}/callback`;
