// OAuth errors in the shape RFC 6749 §5.2 prescribes ({error, error_description}), not the API's
// {error:{code}} shape: OAuth clients (the MCP SDK among them) parse these by their `error` code.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** 400 for nearly everything; 401 for a client that failed to authenticate. */
    readonly status = 400,
  ) {
    super(description);
  }
}

/** Token responses and errors must never be cached (RFC 6749 §5.1). */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

export function oauthErrorResponse(error: OAuthError): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.status === 401) headers["www-authenticate"] = 'Basic realm="brainbox"';
  return Response.json({ error: error.code, error_description: error.description }, { status: error.status, headers });
}

/** Runs an OAuth endpoint: an OAuthError becomes its JSON error; anything else goes to the app's handler. */
export async function oauthEndpoint(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error);
    throw error;
  }
}
