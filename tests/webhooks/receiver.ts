// A webhook receiver on loopback for the tests: records every request (headers and the exact body) and answers
// as the test says (`answer`), by default 204. Receivers verify with standardwebhooks, as a real one would.
import { Webhook } from "standardwebhooks";

export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  answer: (req: Request, n: number) => Response | Promise<Response>;
  /** The bodies of the events of a type received so far, parsed. */
  events(type?: string): any[];
  stop(): void;
}

export function startReceiver(): Receiver {
  const r: Receiver = {
    url: "",
    port: 0,
    received: [],
    answer: () => new Response(null, { status: 204 }),
    events: (type) => r.received.filter((x) => x.path === "/hook").map((x) => JSON.parse(x.body)).filter((e) => !type || e.type === type),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const body = await req.text();
      r.received.push({ headers: headersOf(req.headers), body, path: new URL(req.url).pathname });
      return r.answer(req, r.received.length);
    },
  });
  r.port = server.port!;
  r.url = `http://127.0.0.1:${server.port}/hook`;
  return r;
}

/** Verifies a received request with the hook's secret; throws WebhookVerificationError when it is not genuine. */
export function verify(secret: string, got: Received): any {
  return new Webhook(secret).verify(got.body, got.headers);
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
