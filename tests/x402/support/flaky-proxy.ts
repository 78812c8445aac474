// A loopback proxy in front of the facilitator stand-in that can break one endpoint at a time (answer 503,
// or answer JSON that is not x402), so a test can fail /settle while /verify still works. The "lost-*"
// kinds forward the request (the stand-in really settles on chain) and then lose the reply: "lost-reply"
// answers 502, "lost-connection" starts a 200 and drops the connection mid-body, "lost-timeout" never
// answers (until the client gives up).
export type Breakage = "503" | "garbage" | "lost-reply" | "lost-connection" | "lost-timeout" | null;

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
      if (how?.startsWith("lost-")) {
        const settled = await fetch(`${target}${path}`, { method: request.method, headers: request.headers, body: request.body });
        await settled.arrayBuffer(); // the facilitator finished (the transfer is on chain); its answer goes nowhere
        if (how === "lost-reply") return Response.json({ error: "bad gateway" }, { status: 502 });
        if (how === "lost-connection") return new Response(droppedBody(), { headers: { "content-type": "application/json" } });
        await Promise.race([new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true })), Bun.sleep(30_000)]);
        return new Response(null, { status: 504 });
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

/** A body that sends a few bytes, then fails: the client sees the connection die mid-reply. */
function droppedBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      controller.enqueue(new TextEncoder().encode('{"success":'));
      await Bun.sleep(20);
      controller.error(new Error("connection dropped"));
    },
  });
}
