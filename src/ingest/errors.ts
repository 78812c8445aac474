/**
 * One error type for the whole ingest layer. `code` is stable (callers map it to job states and API
 * errors); `message` is for people.
 */
export type IngestErrorCode =
  | "url_invalid" // not a URL, or not http/https
  | "address_blocked" // destination is private, loopback, metadata... and not allow-listed
  | "dns_failed" // hostname did not resolve
  | "connection_failed" // refused, reset, TLS failure
  | "too_many_redirects"
  | "timeout"
  | "too_large" // body above maxBytes
  | "http_status" // final response not 2xx (see `status`)
  | "unsupported_type" // content type we do not extract
  | "unreadable_document" // bytes do not parse as the detected type
  | "empty_document" // parsed fine, no text in it
  | "document_too_large" // expands beyond the extraction limits (budget.ts): size, parts, pages
  | "extraction_over_budget" // reading it took more time or memory than one document may (extract-thread.ts)
  | "allow_list_invalid"; // bad BRAINBOX_FETCH_ALLOW_HOSTS entry

export class IngestError extends Error {
  override readonly name = "IngestError";

  constructor(
    readonly code: IngestErrorCode,
    message: string,
    readonly details: { status?: number; url?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  /** Worth retrying later: the source may answer next time; a refusal or a bad document will not change. */
  get retryable(): boolean {
    if (this.code === "http_status") {
      const status = this.details.status ?? 0;
      return status === 408 || status === 429 || status >= 500;
    }
    return this.code === "timeout" || this.code === "connection_failed" || this.code === "dns_failed";
  }
}

export function isIngestError(value: unknown): value is IngestError {
  return value instanceof IngestError;
}
