// Where a consent POST came from. Every browser sends `Origin` on a form POST (the consent page's
// Referrer-Policy is same-origin, so its own POSTs carry the real origin, not "null"); a POST without it,
// or from another origin, or that Fetch Metadata calls anything but same-origin, was not sent by the page.

/** True when the POST's `Origin` is this server (its public URL, or the host the request was sent to). */
export function postedFromThisOrigin(headers: Headers, publicUrl: string): boolean {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = headers.get("origin");
  if (!origin || !URL.canParse(origin)) return false;
  const { origin: normalized, host } = new URL(origin);
  if (normalized === new URL(publicUrl).origin) return true;
  // Without BRAINBOX_PUBLIC_URL the server may be reached by another name: the request's own Host, which a
  // page on another site cannot set for the browser.
  return host === headers.get("host");
}
