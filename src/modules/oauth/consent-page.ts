// The consent page: minimal HTML, every value escaped, no script at all (the CSP allows only 'self'
// scripts and the page has none), a stylesheet from this server, never framed.
import { grantedScopes, SCOPES } from "../auth/scopes";
import type { OAuthClient } from "./clients";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const CONSENT_CSS_PATH = "/oauth/consent.css";

export const CONSENT_CSS = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.35rem}.scopes{padding-left:1.25rem}.scopes code{color:#666;font-size:.85em}.signed-in{background:#eaf4ea;border-radius:6px;padding:.6rem 1rem}details{margin-top:1.25rem}.who{background:#f4f4f6;border-radius:6px;padding:.75rem 1rem}.muted{color:#666;font-size:.9em}
.error{background:#fde8e8;color:#8a1c1c;border-radius:6px;padding:.6rem 1rem}label{display:block;margin:1rem 0 .3rem;font-weight:600}
input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;padding:.5rem 1.1rem;border-radius:6px;border:1px solid #888;background:#fff;cursor:pointer}
button.approve{background:#1f5fbf;border-color:#1f5fbf;color:#fff}code{word-break:break-all}`;

/** Page headers: only this server's stylesheet and scripts, no framing, no referrer to other sites, never cached. */
export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  // Set here, so the edge's defaults (which would put no-referrer back) leave these headers alone.
  "x-content-type-options": "nosniff",
  "cross-origin-opener-policy": "same-origin",
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the page's own POST,
  // and the consent POST needs its real Origin (form-origin.ts); other sites still get no referrer.
  "referrer-policy": "same-origin",
};

function page(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${head}
<title>${escape(title)} · Brainbox</title><link rel="stylesheet" href="${CONSENT_CSS_PATH}"></head>
<body>${body}</body></html>`;
}

export interface ConsentPageInput {
  client: OAuthClient;
  redirectUri: string;
  /** The scopes the request asks for (space-separated, already narrowed to known ones). */
  scope: string;
  formToken: string;
  error?: string;
  /** The owner signed in to the admin page in this browser (a web session), with the form's CSRF token. */
  signedIn?: { name: string; csrf: string };
  /**
   * Reload once, from this page: a cross-site navigation that arrived without a session cookie (one an older
   * server set SameSite=Strict) gets it on a same-origin reload; today's Lax cookie comes along anyway.
   */
  reloadForSession?: boolean;
}

export function consentPage(input: ConsentPageInput): string {
  const { client, redirectUri } = input;
  const destination = URL.canParse(redirectUri) ? new URL(redirectUri) : null;
  const returnsTo = destination?.host || destination?.protocol || redirectUri;
  const clientUri = typeof client.metadata.client_uri === "string" ? client.metadata.client_uri : null;
  return page(
    `Connect ${client.name}`,
    `<h1>Connect “${escape(client.name)}” to your Brainbox</h1>
<div class="who"><p><strong>${escape(client.name)}</strong> <span class="muted">(${
      client.metadata.client_id_metadata_document === true
        ? `the name its metadata document gives; the document is published at <code>${escape(new URL(client.id).host)}</code>`
        : "the name it registered with; not verified"
    })</span>
${clientUri ? `<br><span class="muted">${escape(clientUri)}</span>` : ""}</p>
<p>It asks to:</p>
<ul class="scopes">${[...grantedScopes(input.scope)].map((scope) => `<li>${escape(SCOPES[scope])} <code>${scope}</code></li>`).join("")}</ul>
<p class="muted">It can never create or delete API keys, delete brains, change paid-brain settings or connect other
applications. It gets an access token that you can revoke at any time.</p>
<p class="muted">After you answer you go back to <code>${escape(returnsTo)}</code>.</p></div>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ""}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="form_token" value="${escape(input.formToken)}">
${input.signedIn ? signedInFields(input.signedIn) : `${keyFields("Sign in with one of your API keys")}
${BUTTONS("Approve")}`}
</form>`,
    input.reloadForSession ? `<meta http-equiv="refresh" content="0">` : "",
  );
}

const BUTTONS = (approve: string) => `<div class="actions"><button class="approve" type="submit" name="decision" value="approve">${approve}</button>
<button type="submit" name="decision" value="deny">Deny</button></div>`;

function keyFields(label: string): string {
  return `<label for="api_key">${label}</label>
<input type="password" id="api_key" name="api_key" autocomplete="off" placeholder="bb_live_…">
<p class="muted">The key only proves it is you; it is not given to the application.</p>`;
}

/** Allow/Deny as the signed-in owner; a key can still be pasted (it wins: connecting another account). */
function signedInFields(signedIn: { name: string; csrf: string }): string {
  return `<input type="hidden" name="csrf" value="${escape(signedIn.csrf)}">
<p class="signed-in">Signed in as <strong>${escape(signedIn.name)}</strong> (the admin page of this Brainbox, in this browser).</p>
${BUTTONS("Allow")}
<details><summary>Use an API key instead</summary>
${keyFields("API key (connects the account this key belongs to)")}
${BUTTONS("Approve with this key")}
</details>`;
}

export function errorPage(message: string): string {
  return page(
    "Cannot connect",
    `<h1>This connection request cannot be used</h1><p class="error" role="alert">${escape(message)}</p>
<p class="muted">Start again from the application you were connecting.</p>`,
  );
}
