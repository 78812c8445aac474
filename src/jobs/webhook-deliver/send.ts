// One delivery attempt: the outbox row's payload, signed in the Standard Webhooks format, POSTed through the
// SSRF-safe client; the answer in plain words for the delivery log.
import { Webhook } from "standardwebhooks";
import { isIngestError, safePost, type AllowList } from "../../ingest";

/** Bytes of a receiver's answer read at most (the status decides; the rest is never read). */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** Characters of the answer's text kept in the log beside an error status. */
const ANSWER_SNIPPET_CHARS = 200;

export interface Outcome {
  delivered: boolean;
  statusCode: number | null;
  /** Why it failed, for the owner; null when delivered. */
  error: string | null;
  /** A refusal by the SSRF rules: retrying cannot help until the operator allows the host. */
  refused: boolean;
}

export interface Delivery {
  id: string;
  url: string;
  secret: string;
  payload: string;
}

export function signedHeaders(delivery: Delivery, at = new Date()): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Brainbox-Webhooks/1",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(delivery.secret).sign(delivery.id, at, delivery.payload),
  };
}

export async function sendDelivery(delivery: Delivery, opts: { allowHosts: AllowList; timeoutMs: number }): Promise<Outcome> {
  try {
    const answer = await safePost(delivery.url, {
      allowHosts: opts.allowHosts,
      body: delivery.payload,
      headers: signedHeaders(delivery),
      timeoutMs: opts.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
    const { status } = answer;
    if (status >= 200 && status <= 299) return { delivered: true, statusCode: status, error: null, refused: false };
    if (status >= 300 && status <= 399)
      return { delivered: false, statusCode: status, error: `The receiver answered HTTP ${status}, a redirect${answer.location ? ` to ${answer.location}` : ""}; redirects are not followed: point the webhook at the final URL`, refused: false };
    const snippet = answer.body.trim().slice(0, ANSWER_SNIPPET_CHARS);
    return { delivered: false, statusCode: status, error: `The receiver answered HTTP ${status}${snippet ? `: ${snippet}` : ""}`, refused: false };
  } catch (e) {
    if (isIngestError(e) && (e.code === "address_blocked" || e.code === "url_invalid"))
      return { delivered: false, statusCode: null, error: `Not sent: ${e.message}`, refused: true };
    if (isIngestError(e) && e.code === "timeout") return { delivered: false, statusCode: null, error: `The receiver did not answer within ${opts.timeoutMs} ms`, refused: false };
    return { delivered: false, statusCode: null, error: (e as Error).message, refused: false };
  }
}
