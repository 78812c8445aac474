// Shared by the evaluation scripts: a real Brainbox on loopback (temp data dir), loading sources through the
// HTTP API and asking through it (figures: eval-sweep.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { answerService } from "../src/modules/answer";
import { startServer, type Running } from "../src/runtime";

export const EVAL_DIR = process.env.BRAINBOX_EVAL_DIR ?? join(import.meta.dir, "../../shared/eval");

export interface EvalServer {
  running: Running;
  api(path: string, json?: unknown, headers?: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

/**
 * Starts Brainbox with the caller's BRAINBOX_* environment (e.g. BRAINBOX_EMBED_MODEL) on a fresh data dir.
 * `serialJobs`: one job at a time. Concurrent job batches interleave their writes by timing (and retry a
 * slug one of them lost), so page ids, links and concept pages, and the figures read from them, would
 * differ from run to run.
 */
export async function startEvalServer(opts: { serialJobs?: boolean } = {}): Promise<EvalServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "brainbox-eval-"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("BRAINBOX_")));
  if (opts.serialJobs) env.BRAINBOX_JOB_CONCURRENCY = "1";
  // The unversioned ask is metered per day (plans); an evaluation asks more than a day's quota.
  const config = loadConfig({ BRAINBOX_LOG_LEVEL: "warn", BRAINBOX_DAILY_QUOTA: "1000000", ...env, BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir });
  const running = await startServer(config, createLogger("warn"));
  const key = running.firstKey!.key;
  const api = async (path: string, json?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(running.url + path, {
      method: json === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text);
  };
  return {
    running,
    api,
    async close() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sources per batch request: under the route's 1,000 items and the default 1 MiB body. */
function batchesOf<T>(docs: T[], maxItems = 500, maxBytes = 900_000): T[][] {
  const out: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const doc of docs) {
    const size = Buffer.byteLength(JSON.stringify(doc)) + 1;
    if (chunk.length > 0 && (chunk.length >= maxItems || bytes + size > maxBytes)) {
      out.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(doc);
    bytes += size;
  }
  if (chunk.length) out.push(chunk);
  return out;
}

/** Adds text sources (with externalId) and waits until every one is ready; returns externalId → source id. */
export async function loadSources(server: EvalServer, brainId: string, docs: { externalId: string; title: string; content: string }[], opts: { quiet?: boolean } = {}) {
  const started = Date.now();
  const ids = new Map<string, string>();
  // Through the batch route: each chunk is queued in one transaction, so the job loop claims the same
  // batches whatever the timing of the posts (a wiki built the same way each run) and a pooled brain of
  // thousands of paragraphs loads in a few requests.
  for (const chunk of batchesOf(docs)) {
    const { results } = await server.api(`/api/v1/brains/${brainId}/sources/batch`, { sources: chunk });
    for (const r of results) {
      if (!r.source) throw new Error(`source ${chunk[r.index]!.externalId}: ${JSON.stringify(r.error)}`);
      ids.set(chunk[r.index]!.externalId, r.source.id);
    }
  }
  for (;;) {
    const { sources } = await server.api(`/api/v1/brains/${brainId}/sources`);
    const failed = sources.filter((s: any) => s.status === "failed");
    if (failed.length) throw new Error(`sources failed: ${JSON.stringify(failed.slice(0, 3))}`);
    if (sources.every((s: any) => s.status === "ready")) break;
    await Bun.sleep(50);
  }
  // A source is ready before the wiki's work on it ends (concept pages, links into earlier pages): questions
  // wait for the job queue to empty, so they meet the wiki as built.
  for (;;) {
    const metrics = await (await fetch(`${server.running.url}/metrics`)).text();
    const jobs = (status: string) => Number(new RegExp(`^brainbox_jobs\\{status="${status}"\\} (\\d+)`, "m").exec(metrics)?.[1] ?? NaN);
    if (jobs("queued") === 0 && jobs("running") === 0) break;
    await Bun.sleep(50);
  }
  if (!opts.quiet) console.log(`loaded ${docs.length} sources in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return ids;
}

/** slug → source id for every page of the brain (to map /context slugs to their source). */
export async function pageSources(server: EvalServer, brainId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page: any = await server.api(`/api/v1/brains/${brainId}/pages?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
    for (const p of page.pages) out.set(p.slug, p.sourceId);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export interface Question {
  id: string;
  question: string;
  answerable: boolean;
  /** Source id of the gold passage (answerable ones). */
  goldSource?: string;
  /** The answer's words as the data set gives them (SQuAD's spans), when it has short answers. */
  answers?: string[];
}

export interface Outcome extends Question {
  thin: boolean;
  citedSources: string[];
  contextSources: string[];
  /** The answer as given (markdown, `[[slug]]` citations kept). */
  answerMd: string;
  features: Record<string, unknown>;
  /** What evidence was weighed on (query, terms, pages, IDF statistics): eval-calibrate recomputes features from it. */
  retrieval: unknown;
}

/** Asks every question on the unversioned surface (citations carry documentId) and retrieves /context. */
export async function askAll(server: EvalServer, brainId: string, questions: Question[], slugSource: Map<string, string>, opts: { quiet?: boolean } = {}): Promise<Outcome[]> {
  const service = answerService(server.running.ctx);
  const brain = await server.api(`/api/v1/brains/${brainId}`);
  const brains = [{ id: brainId, name: brain.brain.name, kind: "primary" as const }];
  const out: Outcome[] = [];
  const started = Date.now();
  for (const q of questions) {
    const answer = await server.api(`/api/brains/${brainId}/ask`, { question: q.question });
    const context = await server.api(`/api/brains/${brainId}/context`, { query: q.question });
    const { evidence, retrieval } = await service.assess({ brains, question: q.question });
    out.push({
      ...q,
      thin: answer.thin,
      citedSources: answer.citations.map((c: any) => c.documentId),
      answerMd: answer.answerMd,
      contextSources: context.pages.map((p: any) => slugSource.get(p.slug) ?? "?"),
      features: { ...evidence.features, expectedType: evidence.expectedType },
      retrieval: { ...retrieval, stats: { pageCount: retrieval.stats.pageCount, documentFrequency: Object.fromEntries(retrieval.stats.documentFrequency) } },
    });
  }
  if (!opts.quiet) console.log(`asked ${questions.length} questions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}
