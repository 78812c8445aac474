// The provider's metadata, discovered at first use and kept (with the key set openid-client caches for it,
// refetched by the library when an unknown key id appears and the cached set is a minute old, and every
// five minutes anyway: key rotation). A failed discovery is not
// kept: the next sign-in tries again. Every request to the provider has the configured deadline.
import * as oidc from "openid-client";
import type { SsoProvider } from "./providers";

/** Metadata is re-read this often, so a provider that moves an endpoint is followed without a restart. */
const REDISCOVER_MS = 3600_000;

interface Cached {
  config: Promise<oidc.Configuration>;
  at: number;
}

const cache = new Map<string, Cached>();
const keyOf = (p: SsoProvider) => `${p.id}\u0000${p.issuer}\u0000${p.clientId}`;

export function providerClient(provider: SsoProvider, now = Date.now()): Promise<oidc.Configuration> {
  const key = keyOf(provider);
  const hit = cache.get(key);
  if (hit && now - hit.at < REDISCOVER_MS) return hit.config;
  const config = discover(provider);
  cache.set(key, { config, at: now });
  config.catch(() => {
    if (cache.get(key)?.config === config) cache.delete(key);
  });
  return config;
}

async function discover(provider: SsoProvider): Promise<oidc.Configuration> {
  const issuer = new URL(provider.issuer);
  // The id_token's signature is checked against the provider's published keys (JWKS, refetched on an unknown
  // key id), not only trusted for arriving over TLS: a proxy or a misissued certificate cannot forge a person.
  // Plain http is accepted by the configuration only for a provider on this machine (config.ts).
  const execute = [oidc.enableNonRepudiationChecks, ...(issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [])];
  const auth = provider.clientSecret ? oidc.ClientSecretBasic(provider.clientSecret) : oidc.None();
  return oidc.discovery(issuer, provider.clientId, provider.clientSecret ? { client_secret: provider.clientSecret } : undefined, auth, {
    execute,
    timeout: provider.timeoutMs / 1000,
  });
}

/** Forgets every discovered provider (tests that restart a provider on another port). */
export function forgetDiscoveries(): void {
  cache.clear();
}
