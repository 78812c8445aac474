// Starts a real Brainbox (in this process, real HTTP on a loopback port, a temp data dir) for a test file.
import { rmSync } from "node:fs";
import { tempDir } from "./temp-dirs";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { startServer, type Running } from "../../src/runtime";

export interface TestServer extends Running {
  /** The owner's first API key. */
  key: string;
  dataDir: string;
  /** fetch against the server with the owner key (or `key: null` for none). */
  api(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export { tempDir } from "./temp-dirs";

/**
 * The env of a file whose servers never ingest a source: no concept-extraction thread. The server starts its
 * thread at once, and the thread loads the tagger's model and warms it up, work such a file never uses.
 * Where extraction runs is tested by the files that ingest (tests/wiki/extract-threads.test.ts among them),
 * which keep the default; a source added here anyway is extracted in the main thread, with the same result.
 */
export const NO_SOURCES: Record<string, string> = { BRAINBOX_NLP_THREADS: "0" };

export async function startTestServer(env: Record<string, string> = {}, dataDir = tempDir()): Promise<TestServer> {
  // A test's server stops without waiting out a job still running: it is handed back, and the data dir goes.
  const config = loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_LOG_LEVEL: "error", BRAINBOX_SHUTDOWN_GRACE_MS: "500", ...env });
  const running = await startServer(config, createLogger("error"));
  if (!running.firstKey) throw new Error("expected a fresh data dir");
  const key = running.firstKey.key;
  const api: TestServer["api"] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    const useKey = init.key === undefined ? key : init.key;
    if (useKey !== null && !headers.has("authorization")) headers.set("authorization", `Bearer ${useKey}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    return fetch(running.url + path, { ...init, headers, body });
  };
  return {
    ...running,
    key,
    dataDir,
    api,
    async close() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Parses a JSON response, failing the test with the body when the status is not the expected one. */
export async function expectJson<T = any>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
