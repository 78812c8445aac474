// The two-step file upload: upload-url creates the source and a short-lived URL; the PUT lands the bytes
// (in the data dir through this server, or straight into S3) and starts processing.
import { sql } from "drizzle-orm";
import { extname } from "node:path";
import { jobs, sources, usedUploadTokens } from "../../db/schema";
import { readCappedBytes } from "../../http/errors";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { newTimeOrderedId } from "../../lib/secrets";
import { enqueue, enqueueStatement } from "../../queue";
import { runBatch, stmt } from "../../db/plain";
import type { BlobStorage } from "../../storage";
import { INGEST_JOB } from "../../queue/kinds";
import { eventStatements } from "../../queue/events";
import { isIngestError, precheckUpload, type ExtractionLimits } from "../../ingest";
import type { Deps } from "./service";
import { instanceSecret, newTokenId, signUpload, verifyUpload } from "./upload-token";

export interface UploadDeps extends Deps {
  storage: BlobStorage;
  publicUrl(): string;
  maxUploadBytes: number;
  ttlSeconds: number;
  extractionLimits: ExtractionLimits;
}

export interface UploadTicket {
  sourceId: string;
  uploadUrl: string;
  key: string;
  method: "PUT";
  headers: { "Content-Type": string };
  expiresAt: string;
}

/** A storage key from the file name: safe characters only, extension kept for type detection. */
function storageKey(brainId: string, sourceId: string, filename: string) {
  const ext = extname(filename).toLowerCase().replace(/[^.a-z0-9]/g, "").slice(0, 10);
  const stem = filename.slice(0, filename.length - extname(filename).length).replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60) || "file";
  return `brains/${brainId}/sources/${sourceId}/${stem}${ext}`;
}

export async function createUpload(
  deps: UploadDeps,
  brainId: string,
  input: { filename: string; contentType: string; size: number },
): Promise<UploadTicket> {
  if (input.size > deps.maxUploadBytes)
    throw new AppError("payload_too_large", `Files are limited to ${deps.maxUploadBytes} bytes`, { field: "size", limit: deps.maxUploadBytes });
  const sourceId = newTimeOrderedId("src");
  const key = storageKey(brainId, sourceId, input.filename);
  const exp = Date.now() + deps.ttlSeconds * 1000;
  await deps.db.insert(sources).values({
    id: sourceId,
    brainId,
    type: "file",
    title: input.filename,
    filename: input.filename,
    contentType: input.contentType,
    size: input.size,
    storageKey: key,
  });
  let uploadUrl = deps.storage.presignPut(key, { contentType: input.contentType, expiresInSeconds: deps.ttlSeconds });
  if (uploadUrl) {
    // Straight to the bucket: the job waits for the object to appear (see the ingest handler).
    await enqueue(deps.db, { kind: INGEST_JOB, subjectId: sourceId, maxAttempts: deps.maxAttempts, payload: { awaitUploadUntil: exp } });
  } else {
    // Through this server: the PUT starts the job. This one, due when the URL expires, fails the source if
    // the PUT never came (a job, so it holds across restarts); the PUT takes its place.
    await enqueue(deps.db, { kind: INGEST_JOB, subjectId: sourceId, maxAttempts: deps.maxAttempts, payload: { awaitUploadUntil: exp }, runAfter: exp });
    const token = signUpload(await instanceSecret(deps.db), {
      jti: newTokenId(),
      sourceId,
      brainId,
      key,
      contentType: input.contentType,
      size: input.size,
      exp,
    });
    uploadUrl = `${deps.publicUrl()}/api/uploads/${token}`;
  }
  return { sourceId, uploadUrl, key, method: "PUT", headers: { "Content-Type": input.contentType }, expiresAt: new Date(exp).toISOString() };
}

const mediaType = (value: string | null) => (value ?? "").split(";")[0]!.trim().toLowerCase();

/** Receives a PUT to a signed URL: checks it all, stores the bytes, marks the token used, starts the job. */
export async function receiveUpload(deps: UploadDeps, token: string, request: Request): Promise<{ sourceId: string; size: number }> {
  const claims = verifyUpload(await instanceSecret(deps.db), token);
  if (mediaType(request.headers.get("content-type")) !== mediaType(claims.contentType))
    throw new AppError("unsupported_media_type", `Content-Type must be ${claims.contentType}, as declared`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) !== claims.size)
    throw new AppError("invalid_request", `The upload must be exactly ${claims.size} bytes, as declared`, { field: "size" });
  const used = await deps.db.query.usedUploadTokens.findFirst({ where: (t, { eq }) => eq(t.tokenId, claims.jti) });
  if (used) throw new AppError("forbidden", "This upload URL was already used");
  const bytes = await readCappedBytes(request, claims.size);
  if (bytes.byteLength !== claims.size)
    throw new AppError("invalid_request", `The upload must be exactly ${claims.size} bytes, got ${bytes.byteLength}`, { field: "size" });
  await refuseOverLimits(deps, claims, bytes);
  await deps.storage.write(claims.key, bytes, claims.contentType);
  try {
    await runBatch(deps.db, [
      deps.db.insert(usedUploadTokens).values({ tokenId: claims.jti }),
      // The job waiting for the URL to expire goes; the UPDATE's change count guards the new one.
      deps.db.run(sql`DELETE FROM ${jobs} WHERE subject_id = ${claims.sourceId} AND kind = ${INGEST_JOB} AND status = 'queued'`),
      deps.db.run(sql`UPDATE ${sources} SET uploaded_at = ${Date.now()}, updated_at = ${Date.now()} WHERE id = ${claims.sourceId}`),
      enqueueStatement({ kind: INGEST_JOB, subjectId: claims.sourceId, maxAttempts: deps.maxAttempts }, stmt("changes() > 0")),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("forbidden", "This upload URL was already used");
    throw e;
  }
  deps.wake();
  return { sourceId: claims.sourceId, size: bytes.byteLength };
}

/**
 * A file whose own zip directory says it is over the extraction limits is refused before it is stored:
 * the source fails with the reason (and `source.failed` goes out), the URL is used up, and the PUT answers
 * 422 `document_too_large`. Files straight to a bucket never pass here; their job fails them the same way.
 */
async function refuseOverLimits(deps: UploadDeps, claims: { jti: string; sourceId: string }, bytes: Uint8Array) {
  try {
    precheckUpload(bytes, deps.extractionLimits);
    return;
  } catch (e) {
    if (!isIngestError(e)) throw e;
    const error = `${e.code}: ${e.message}`;
    const source = await deps.db.query.sources.findFirst({ where: (t, { eq }) => eq(t.id, claims.sourceId) });
    const failed = source
      ? await eventStatements(deps.db, [{ type: "source.failed", brainId: source.brainId, data: { sourceId: source.id, type: source.type, title: source.title, externalId: source.externalId ?? null, error }, key: `source.failed:${source.id}:${source.revision}` }])
      : [];
    await runBatch(deps.db, [
      deps.db.insert(usedUploadTokens).values({ tokenId: claims.jti }),
      deps.db.run(sql`DELETE FROM ${jobs} WHERE subject_id = ${claims.sourceId} AND kind = ${INGEST_JOB} AND status = 'queued'`),
      deps.db.run(sql`UPDATE ${sources} SET status = 'failed', error = ${error}, uploaded_at = ${Date.now()}, updated_at = ${Date.now()} WHERE id = ${claims.sourceId}`),
      ...failed,
    ]);
    throw new AppError("document_too_large", `The file cannot be read: ${e.message}. The source is marked failed.`, { sourceId: claims.sourceId });
  }
}
