// A loopback proxy in front of the facilitator stand-in that can break one endpoint at a time (answer 503,
// or answer JSON that is not x402), so a test can fail /settle while /verify still works. "lost-reply"
// forwards the request (the stand-in really settles on chain) and then answers 502: the reply is lost.
export type Breakage = "503" | "garbage" | "lost-reply" | null;

export interface FlakyProxy {
  url: string;
  break(path: "/verify" | "/settle" | "/supported", how: Breakage): void;
  stop(): Promise<void>;
}

export function startFlakyProxy(target: string): FlakyProxy {
  const broken = new Map<string, Breakage>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const how = broken.get(path) ?? null;
      if (how === "503") return Response.json({ error: "maintenance" }, { status: 503 });
      if (how === "garbage") return Response.json({ hello: "world" });
      if (how === "lost-reply") {
        const settled = await fetch(`${target}${path}`, { method: request.method, headers: request.headers, body: request.body });
        await settled.arrayBuffer(); // the facilitator finished (the transfer is on chain); its answer goes nowhere
        return Response.json({ error: "bad gateway" }, { status: 502 });
      }
      return fetch(`${target}${path}`, { method: request.method, headers: request.headers, body: request.body });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    break: (path, how) => void broken.set(path, how),
    stop: () => server.stop(true),
  };
}
