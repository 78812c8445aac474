// Why a single sign-on did not complete: a stable reason (the audit log's), the API error code, a message
// a person can act on. A browser sees it as a page, an API caller as the usual JSON error.
import { AppError, type ErrorCode } from "../../lib/errors";

export class SsoFailure extends AppError {
  constructor(
    readonly reason: string,
    code: Extract<ErrorCode, "sso_failed" | "sso_refused" | "upstream_unavailable" | "not_found" | "rate_limited">,
    message: string,
  ) {
    super(code, message, { reason });
  }
}
