// Domain errors carry a stable machine code; the HTTP layer maps codes to statuses (src/http/errors.ts).
export type ErrorCode =
  | "unauthorized"
  | "forbidden"
  | "cross_site_request"
  | "invalid_credentials"
  | "too_many_attempts"
  | "invalid_link"
  | "sso_failed"
  | "sso_refused"
  | "insufficient_scope"
  | "plan_required"
  | "not_found"
  | "route_not_found"
  | "invalid_request"
  | "invalid_json"
  | "invalid_path"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "document_too_large"
  | "bank_exhausted"
  | "quota_exceeded"
  | "payment_required"
  | "rate_limited"
  | "upstream_unavailable"
  | "storage_full"
  | "internal";

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the error body (e.g. `field`, `quota`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const invalid = (field: string, message: string) => new AppError("invalid_request", message, { field });

/** The words of every 507: what happened, that nothing was half-saved, and what still works. */
export const STORAGE_FULL_MESSAGE = "The server is out of disk space, so nothing was saved. Reading still works; retry once space has been freed.";
export const storageFull = () => new AppError("storage_full", STORAGE_FULL_MESSAGE);
