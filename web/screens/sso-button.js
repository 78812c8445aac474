// "Sign in with ‹provider›": one link per single sign-on provider the server offers (GET
// /api/v1/session/providers). A plain link, not a script action: the sign-in is a chain of top-level
// navigations (here → the provider → back to /auth/<id>/callback, which lands on the page signed in).
import { h } from "../lib/dom.js";

export const PROVIDERS_PATH = "/api/v1/session/providers";

/**
 * The sign-in links, in a <div class="sso-buttons">, or null when the server offers none (or cannot say).
 * `returnTo`: a path of this server to land on afterwards (the current hash route, say).
 */
export async function ssoButtons({ returnTo, signal } = {}) {
  let providers;
  try {
    const res = await fetch(PROVIDERS_PATH, { headers: { accept: "application/json" }, signal });
    if (!res.ok) return null;
    ({ providers } = await res.json());
  } catch {
    return null;
  }
  if (!Array.isArray(providers) || !providers.length) return null;
  return h(
    "div",
    { class: "sso-buttons" },
    providers.map((p) => h("a", { class: "button sso", href: startHref(p.startUrl, returnTo), "data-provider": p.id }, `Sign in with ${p.name}`)),
  );
}

function startHref(startUrl, returnTo) {
  if (!returnTo) return startUrl;
  return `${startUrl}?returnTo=${encodeURIComponent(returnTo)}`;
}
