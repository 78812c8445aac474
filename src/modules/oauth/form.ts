// Request parameters of the OAuth endpoints: form-encoded as the RFCs say (JSON tolerated), every
// parameter at most once (RFC 6749 §3.2: a repeated parameter is an error).
import { OAuthError } from "./errors";

export function formFields(body: unknown): Record<string, string> {
  if (body === undefined || body === null || body === "") return {};
  if (typeof body !== "object" || Array.isArray(body)) throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded");
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new OAuthError("invalid_request", `${key} is repeated`);
    if (typeof value === "string") out[key] = value;
    else if (typeof value === "number" || typeof value === "boolean") out[key] = String(value);
  }
  return out;
}
