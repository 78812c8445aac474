// The page a browser sees when single sign-on does not complete: what happened, in plain words, and a way
// back to the sign-in screen. No script, every value escaped (the consent page's stylesheet and headers).
import { errorResponse, statusOf } from "../../http/errors";
import { CONSENT_CSS_PATH, PAGE_HEADERS } from "../oauth/consent-page";
import { prefersHtml } from "../wiki/page-html";
import type { SsoFailure } from "./failure";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function failurePage(providerName: string, failure: SsoFailure): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in did not complete · Brainbox</title><link rel="stylesheet" href="${CONSENT_CSS_PATH}"></head>
<body><h1>Sign-in with ${escape(providerName)} did not complete</h1>
<p class="error" role="alert">${escape(failure.message)}</p>
<p class="muted">Reason: <code>${escape(failure.reason)}</code></p>
<p><a href="/">Back to sign-in</a></p></body></html>`;
}

/**
 * The failure as the caller wants it: a page for a browser (the flow is a browser's), the usual JSON error
 * for an API client (Accept: application/json). Extra headers (a cleared flow cookie) go on either.
 */
export function failureResponse(request: Request, providerName: string, failure: SsoFailure, headers: Record<string, string> = {}): Response {
  if (!wantsPage(request)) return errorResponse(failure, { "cache-control": "no-store", ...headers });
  return new Response(failurePage(providerName, failure), { status: statusOf[failure.code], headers: { ...PAGE_HEADERS, ...headers } });
}

/** A browser navigating here ranks text/html first; an API client (or `*` / `*`) gets JSON. */
const wantsPage = (request: Request) => prefersHtml(request.headers.get("accept"));
