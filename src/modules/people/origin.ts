// Requests a browser may send on behalf of another site. Signing in (login CSRF: being signed in to the
// attacker's account) and signing out are refused when the browser says they come from elsewhere; clients
// that are not browsers send neither Origin nor Sec-Fetch-Site and are not affected.
import { AppError } from "../../lib/errors";
import { postedFromThisOrigin } from "../oauth/form-origin";

export function refuseCrossSite(request: Request, publicUrl: string): void {
  const { headers } = request;
  if (!headers.has("origin") && !headers.has("sec-fetch-site")) return;
  const site = headers.get("sec-fetch-site");
  if (site === "none") return; // typed or bookmarked by the person
  if (!postedFromThisOrigin(headers, publicUrl))
    throw new AppError("cross_site_request", "This request was not sent from this server's own pages");
}
