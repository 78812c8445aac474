// A loopback stand-in for the Hugging Face hub: serves `{modelsDir}/{modelId}/{file}` at
// `/{modelId}/resolve/main/{file}`, 404 for anything else, like the hub's "Entry not found".
import { resolve, sep } from "node:path";

export interface HubStandin {
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  stop(): Promise<void>;
}

export function startHubStandin(opts: { modelsDir: string }): HubStandin {
  const root = resolve(opts.modelsDir);
  const requests: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const match = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(path);
      if (req.method !== "GET" || !match) return notFound();
      const filePath = resolve(root, match[1]!, match[2]!);
      if (!filePath.startsWith(root + sep)) return notFound();
      const file = Bun.file(filePath);
      return (await file.exists()) ? new Response(file) : notFound();
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    stop: () => server.stop(true),
  };
}

const notFound = () => Response.json({ error: "Entry not found" }, { status: 404 });
