// Helpers for tests that add sources and wait for the job loop to process them.
import { afterAll, beforeAll, expect } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "./server";
import { WAIT_BOUND_MS } from "./wait";

export async function newBrain(s: { api: TestServer["api"] }, name = `Brain ${crypto.randomUUID().slice(0, 8)}`, key?: string): Promise<string> {
  const { brain } = await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name }, key }), 201);
  return brain.id;
}

/**
 * Polls a source until it reaches one of `statuses` (default: ready or failed). A source is ready once its
 * pages are written; its job then refreshes the concept pages it names, serving HTTP requests meanwhile:
 * with the server in this process (`ctx`), a ready source is also waited for until its job is done.
 */
export async function waitForSource(
  s: { api: TestServer["api"]; ctx?: TestServer["ctx"] },
  brainId: string,
  sourceId: string,
  statuses: string[] = ["ready", "failed"],
  timeoutMs = WAIT_BOUND_MS,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${sourceId}`), 200)).source;
    if (statuses.includes(last.status)) {
      if (last.status !== "ready" || !s.ctx || (await jobsRunning(s.ctx, sourceId)) === 0) return last;
    }
    await Bun.sleep(25);
  }
  throw new Error(`source ${sourceId} stuck at ${JSON.stringify(last)}`);
}

async function jobsRunning(ctx: TestServer["ctx"], subjectId: string): Promise<number> {
  const rows = await ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE subject_id = ? AND status IN ('queued', 'running')", args: [subjectId] });
  return Number(rows.rows[0]!.n);
}

/** A file uploaded through a signed URL (v1), its PUT checked; returns the new source's id. */
export async function uploadFile(s: { api: TestServer["api"] }, brainId: string, filename: string, contentType: string, bytes: Uint8Array): Promise<string> {
  const ticket = await expectJson(
    await s.api(`/api/v1/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename, contentType, size: bytes.byteLength } }),
    201,
  );
  const put = await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": contentType } });
  expect(put.status).toBe(200);
  return ticket.sourceId;
}

export async function addText(s: { api: TestServer["api"] }, brainId: string, title: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title, content, ...extra } });
  const body = await res.json();
  expect([200, 201]).toContain(res.status);
  return body as { source: { id: string; status: string; type: string; title: string; externalId: string | null }; created: boolean };
}

/**
 * Adds each `title → content` as a text source, all posted before any is waited for (so the job loop may
 * batch them), then waits until each is ready. Returns the source ids by title.
 */
export async function addTextsReady(s: { api: TestServer["api"]; ctx?: TestServer["ctx"] }, brainId: string, sources: Record<string, string>): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [title, content] of Object.entries(sources)) ids[title] = (await addText(s, brainId, title, content)).source.id;
  for (const id of Object.values(ids)) expect((await waitForSource(s, brainId, id)).status).toBe("ready");
  return ids;
}

export async function pagesOf(s: TestServer, brainId: string): Promise<Array<{ id: number; slug: string; title: string; markdown: string; source_id: string }>> {
  const rows = await s.ctx.database.client.execute({ sql: "SELECT id, slug, title, markdown, source_id FROM pages WHERE brain_id = ? ORDER BY id", args: [brainId] });
  return rows.rows as any;
}

/** Asks a brain over v1 (or the unversioned surface) and returns the 200 body. */
export async function askBrain(s: { api: TestServer["api"] }, brainId: string, question: string, surface: "v1" | "unversioned" = "v1"): Promise<any> {
  const path = surface === "v1" ? `/api/v1/brains/${brainId}/ask` : `/api/brains/${brainId}/ask`;
  return expectJson(await s.api(path, { method: "POST", json: { question } }), 200);
}

/**
 * A test file's brain of `sources` (title → content), on its own server started before its tests and closed
 * after them; returns how to ask it (over HTTP, the v1 surface).
 */
export function brainOf(name: string, sources: Record<string, string>): (question: string) => Promise<any> {
  let s: TestServer;
  let brainId: string;
  beforeAll(async () => {
    s = await startTestServer();
    brainId = await newBrain(s, name);
    await addTextsReady(s, brainId, sources);
  });
  afterAll(() => s.close());
  return (question) => askBrain(s, brainId, question);
}

/** Markdown sources titled by their first heading, as an import titles a Markdown file: title → content. */
export const titledByHeading = (...markdowns: string[]): Record<string, string> =>
  Object.fromEntries(markdowns.map((markdown) => [markdown.split("\n")[0]!.replace(/^#+\s*/, ""), markdown]));

