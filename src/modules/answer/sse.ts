// Server-sent events for streamed answers: `token` events (data: a piece of text) while the answer is
// written, `reset` when the text so far is void (the model failed mid-answer and the fallback follows), then
// one `done` event carrying the same JSON the non-streaming call returns, or an `error` event with the JSON
// error body.
import { errorBody } from "../../http/errors";
import { AppError } from "../../lib/errors";
import type { Logger } from "../../lib/log";

export type SendEvent = (event: "token" | "reset", data: string) => void;

export function wantsEventStream(request: Request): boolean {
  return (request.headers.get("accept") ?? "").toLowerCase().includes("text/event-stream");
}

export function eventStream(log: Logger, run: (send: SendEvent, signal: AbortSignal) => Promise<unknown>): Response {
  const abort = new AbortController();
  const encoder = new TextEncoder();
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (event: string, data: string) => {
        if (closed) return;
        controller.enqueue(encoder.encode(frame(event, data)));
      };
      (async () => {
        try {
          const result = await run(write, abort.signal);
          write("done", JSON.stringify(result));
        } catch (e) {
          if (abort.signal.aborted) return; // the client left: nobody to tell
          if (!(e instanceof AppError)) log.error("streamed answer failed", { error: String((e as Error)?.stack ?? e) });
          const body = e instanceof AppError ? errorBody(e.code, e.message, e.details) : errorBody("internal", "Internal server error");
          write("error", JSON.stringify(body));
        } finally {
          if (!closed) {
            closed = true;
            controller.close();
          }
        }
      })();
    },
    cancel() {
      closed = true;
      abort.abort(new Error("client disconnected"));
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" },
  });
}

/** One event; a multi-line payload becomes several `data:` lines, which the client joins with newlines. */
function frame(event: string, data: string): string {
  return `event: ${event}\n${data.split(/\r?\n/).map((line) => `data: ${line}`).join("\n")}\n\n`;
}
