// One JSON error shape everywhere: {error: {code, message, ...details}}. Maps domain codes and Elysia's own
// failures (validation, parse, unknown route) to statuses; never leaks a stack trace.
import { Elysia, ValidationError } from "elysia";
import { pathOf } from "../lib/url-path";
import { isDatabaseFull, isStorageFull } from "../lib/db-errors";
import { AppError, storageFull, type ErrorCode } from "../lib/errors";
import type { Logger } from "../lib/log";
import type { StorageHealth } from "../lib/storage-health";

export const statusOf: Record<ErrorCode, number> = {
  unauthorized: 401,
  forbidden: 403,
  cross_site_request: 403,
  invalid_credentials: 401,
  too_many_attempts: 429,
  invalid_link: 400,
  sso_failed: 401,
  sso_refused: 403,
  insufficient_scope: 403,
  plan_required: 403,
  not_found: 404,
  route_not_found: 404,
  invalid_request: 422,
  invalid_json: 400,
  invalid_path: 400,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  document_too_large: 422,
  bank_exhausted: 402,
  payment_required: 402,
  quota_exceeded: 429,
  rate_limited: 429,
  upstream_unavailable: 503,
  storage_full: 507,
  internal: 500,
};

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  const { quota, headers: _headers, ...rest } = details;
  // The contract puts `quota` beside the error on a 429, not inside it.
  return quota === undefined ? { error: { code, message, ...rest } } : { error: { code, message, ...rest }, quota };
}

export function errorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  return Response.json(errorBody(error.code, error.message, error.details), {
    status: statusOf[error.code],
    headers,
  });
}

type Schema = { anyOf?: Schema[]; const?: unknown; pattern?: string; type?: string; minimum?: number; maximum?: number; maxLength?: number };
type ValueError = { path?: string; message?: string; schema?: Schema; value?: unknown };

/** "a string", "an array": what a value of a JSON schema type is called. */
const TYPE_NAMES: Record<string, string> = { string: "a string", boolean: "true or false", array: "an array", object: "an object" };

/** "an integer from 1 to 50", "a number of at least 0". */
function numberRule(schema: Schema): string {
  const what = schema.type === "integer" ? "an integer" : "a number";
  const { minimum: min, maximum: max } = schema;
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  if (min !== undefined) return `${what} of at least ${min}`;
  return max !== undefined ? `${what} of at most ${max}` : what;
}

function describeValidation(error: ValidationError): { field: string; message: string; limit?: number } {
  const first = error.valueError as ValueError | undefined;
  const field = (first?.path ?? "").replace(/^\//, "").replaceAll("/", ".") || error.type;
  // "Expected union value" says nothing: a choice of literals lists them, and a number (which Elysia also
  // accepts written as a string, a union) says its range.
  const choices = first?.schema?.anyOf?.every((s) => s.const !== undefined) ? first.schema.anyOf.map((s) => JSON.stringify(s.const)) : null;
  if (choices) return { field, message: `${field}: must be one of ${choices.join(", ")}` };
  // A value of the wrong JSON type says the type wanted ({"question": 5} is no blank question).
  const wanted = first?.schema?.type ? TYPE_NAMES[first.schema.type] : undefined;
  const actual = Array.isArray(first?.value) ? "array" : first?.value === null ? "null" : typeof first?.value;
  if (wanted && first && "value" in first && actual !== first.schema!.type) return { field, message: `${field}: ${first.value === undefined ? "is required" : `must be ${wanted}`}` };
  // Checked before blankness: a string past its limit broke that rule, whatever else its schema asks.
  const maxLength = first?.schema?.maxLength;
  if (maxLength !== undefined && typeof first?.value === "string" && first.value.length > maxLength) {
    return { field, message: `${field}: must be at most ${maxLength} characters`, limit: maxLength };
  }
  if (first?.schema?.pattern === "\\S") return { field, message: `${field}: must not be blank` };
  const numeric = [first?.schema, ...(first?.schema?.anyOf ?? [])].find((s) => s?.type === "integer" || s?.type === "number");
  if (numeric) return { field, message: `${field}: must be ${numberRule(numeric)}` };
  return { field, message: `${field}: ${first?.message ?? "invalid value"}` };
}

export const httpErrors = (log: Logger, storage?: StorageHealth) =>
  new Elysia({ name: "http-errors" }).error({ AppError }).onError({ as: "global" }, ({ code, error: raw, request }) => {
    // Elysia wraps what a body parser throws; our parser throws AppErrors (413, invalid JSON).
    const error = code === "PARSE" && (raw as Error).cause instanceof AppError ? (raw as Error).cause : raw;
    if (error instanceof AppError) {
      return errorResponse(error, (error.details.headers as Record<string, string> | undefined) ?? {});
    }
    // A body that could not be read fails validation; report why it could not be read instead.
    const unreadable = deferredBodyError(request);
    if (unreadable) return errorResponse(unreadable);
    switch (code) {
      case "VALIDATION": {
        const { message, ...details } = describeValidation(error as ValidationError);
        return Response.json(errorBody("invalid_request", message, details), { status: 422 });
      }
      case "PARSE":
        return Response.json(errorBody("invalid_json", "The request body is not valid JSON"), { status: 400 });
      case "NOT_FOUND":
        return Response.json(errorBody("route_not_found", `No route for ${request.method} ${new URL(request.url).pathname}`), {
          status: 404,
        });
      default: {
        // A full disk (the database's SQLITE_FULL, a file's ENOSPC) is no bug: 507 and health says so.
        if (isStorageFull(error)) {
          storage?.full(String((error as Error)?.message ?? error), isDatabaseFull(error) ? "database" : "files");
          log.warn("write refused: storage full", { path: pathOf(request.url), error: String((error as Error)?.message ?? error) });
          return errorResponse(storageFull());
        }
        log.error("unhandled error", { path: new URL(request.url).pathname, error: String((error as Error)?.stack ?? error) });
        return Response.json(errorBody("internal", "Internal server error"), { status: 500 });
      }
    }
  });

/** Reads a request body, refusing past `limit` bytes even when no Content-Length was sent. */
export async function readCappedBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function readCapped(request: Request, limit: number): Promise<string> {
  // A declared length (checked against the cap above) bounds the body: HTTP framing delivers no more, so
  // the runtime's native reader can take it whole, without the stream machinery (seen in profiles).
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isInteger(declared) && declared >= 0 && declared <= limit) return request.text();
  return Buffer.from(await readCappedBytes(request, limit)).toString("utf8");
}

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", `The request body is larger than ${limit} bytes`, { limit });

/** Routes that stream their own body (uploads): the parser must leave the stream untouched. */
export const RAW_BODY_PREFIX = "/api/uploads/";

/** A brain's vault import (modules/vault): a zip body, read capped by its handler. */
const RAW_BODY_PATH = /^\/api\/v1\/brains\/[^/]+\/import$/;

/** Paths whose bodies are not JSON and are read by their own handlers (OAuth's HTML forms). */
const FORM_BODY_PREFIX = "/oauth/";

const isJson = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

/**
 * Body errors wait until the credential is checked (issue 17): the parser records them instead of throwing,
 * the account guard answers 401 first and then throws the recorded error, and on routes without the guard
 * the error surfaces at validation (onError above) or, for a route that validates no body, before its handler.
 * Someone without a valid key thus learns nothing about a route's body.
 */
const unreadableBodies = new WeakMap<Request, AppError>();
export const deferredBodyError = (request: Request) => unreadableBodies.get(request);
export function throwDeferredBodyError(request: Request) {
  const error = unreadableBodies.get(request);
  if (error) throw error;
}

/**
 * JSON bodies with a size cap and a clear error for malformed JSON (deferred, see above). Every other route
 * takes JSON only: a body sent with another content type is a 415 that says so, rather than a misleading
 * field error from whatever a form or text parser made of it. An empty body is an empty object.
 */
export const jsonBodies = (limit: number) =>
  new Elysia({ name: "json-bodies" })
    .onBeforeHandle({ as: "global" }, ({ request }) => throwDeferredBodyError(request))
    // The parameters are destructured right here: Elysia reads a hook's source to learn which parts of the
    // request the app uses, and a hook handing its whole context on made every route parse cookies, the
    // query string and all headers (issue 15).
    .onParse({ as: "global" }, async ({ request, contentType, path }) => {
      try {
        return await parseJsonBody(request, contentType, path, limit);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        unreadableBodies.set(request, e);
        return {};
      }
    });

async function parseJsonBody(request: Request, contentType: string | undefined, path: string, limit: number): Promise<unknown> {
  // A returned value ends parsing; the upload handler then reads request.body itself, capped.
  if (path.startsWith(RAW_BODY_PREFIX) || RAW_BODY_PATH.test(path)) return {};
  if (path.startsWith(FORM_BODY_PREFIX)) return;
  const text = await readCapped(request, limit);
  if (!isJson(contentType ?? "")) {
    if (text.length === 0) return {};
    throw new AppError(
      "unsupported_media_type",
      `The request body must be JSON sent with Content-Type: application/json${contentType ? ` (got ${contentType})` : " (none was sent)"}`,
    );
  }
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON");
  }
}

/** A path segment that is not valid percent-encoded UTF-8 (e.g. `%E0%A4%A`) names nothing: 400, before routing. */
export const decodablePaths = () =>
  new Elysia({ name: "decodable-paths" }).onRequest(({ request }) => {
    const path = pathOf(request.url);
    if (!path.includes("%")) return;
    try {
      decodeURIComponent(path);
    } catch {
      return Response.json(errorBody("invalid_path", "The request path is not valid percent-encoded UTF-8"), { status: 400 });
    }
  });
