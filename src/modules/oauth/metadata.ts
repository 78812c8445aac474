// Discovery documents: RFC 8414 authorization server metadata and RFC 9728 protected resource metadata.
// Brainbox is both the authorization server and the resource (its MCP endpoint and its HTTP API).
import { ALL_SCOPES, formatScopes, MCP_SCOPES, type Requirement } from "../auth/scopes";

export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
} as const;

export const CLIENT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** Where an MCP client learns how to get a token for `/mcp` (named in WWW-Authenticate on a 401). */
export const mcpResourceMetadataUrl = (publicUrl: string) => `${publicUrl}/.well-known/oauth-protected-resource/mcp`;

/**
 * The RFC 6750 challenge of a 401 (MCP authorization 2025-11-25): where the resource metadata is and which
 * scope to ask for, plus `error="invalid_token"` when a credential was sent and refused.
 */
export function bearerChallenge(publicUrl: string, path: "" | "/mcp", refused?: string): string {
  const quote = (s: string) => s.replace(/["\\\r\n]/g, "'");
  const metadata = `${publicUrl}/.well-known/oauth-protected-resource${path}`;
  const invalid = refused === undefined ? "" : `, error="invalid_token", error_description="${quote(refused)}"`;
  const scope = formatScopes(path === "/mcp" ? MCP_SCOPES : ALL_SCOPES);
  return `Bearer realm="brainbox", resource_metadata="${metadata}", scope="${scope}"${invalid}`;
}

const quoted = (s: string) => s.replace(/["\\\r\n]/g, "'");

/** The 403 challenge (RFC 6750 §3.1): which scope the route needs; none names an owner-only route. */
export function insufficientScopeChallenge(requirement: Requirement, message: string): string {
  const scope = requirement === "owner" ? "" : `, scope="${requirement}"`;
  return `Bearer realm="brainbox", error="insufficient_scope"${scope}, error_description="${quoted(message)}"`;
}

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: issuer + OAUTH_PATHS.authorize,
    token_endpoint: issuer + OAUTH_PATHS.token,
    registration_endpoint: issuer + OAUTH_PATHS.register,
    revocation_endpoint: issuer + OAUTH_PATHS.revoke,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    // MCP 2025-11-25: a client may use the HTTPS URL of its metadata document as client_id, unregistered.
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/swagger`,
  };
}

/** `path` "" describes the whole HTTP API; "/mcp" the MCP endpoint (its tools need MCP_SCOPES). */
export function protectedResourceMetadata(publicUrl: string, path: "" | "/mcp") {
  return {
    resource: publicUrl + path,
    authorization_servers: [publicUrl],
    scopes_supported: path === "/mcp" ? [...MCP_SCOPES] : [...ALL_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: path === "/mcp" ? "Brainbox MCP server" : "Brainbox API",
    resource_documentation: `${publicUrl}/swagger`,
  };
}
