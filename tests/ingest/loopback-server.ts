import type { Server } from "bun";

/** A Bun.serve on 127.0.0.1 that counts what it receives, so tests can prove a request never arrived. */
export type LoopbackServer = {
  port: number;
  origin: string;
  requests: Request[];
  stop: () => Promise<void>;
};

export function startLoopbackServer(
  handler: (req: Request, url: URL) => Response | Promise<Response>,
  tls?: { cert: string; key: string },
): LoopbackServer {
  const requests: Request[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    ...(tls ? { tls } : {}),
    fetch(req) {
      requests.push(req);
      return handler(req, new URL(req.url));
    },
  });
  const port = server.port!;
  return {
    port,
    origin: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    requests,
    stop: () => server.stop(true),
  };
}
