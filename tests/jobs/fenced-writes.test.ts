// A source's job taken for dead and claimed again (its lease ran out: a replica paused, a blocked event loop)
// while its first run still goes on: both runs read the source before either wrote, and both wrote its page
// (a source of two pages). The write is fenced by the job's claim (its attempt): only the latest claim's
// write lands. Drives the real ingest handler on a real database, the two runs at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf } from "../support/sources";
import { ingestSourceHandler } from "../../src/jobs/ingest-source";
import { claimDue } from "../../src/queue";

describe("a job claimed again while its first run still goes on", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ BRAINBOX_JOBS: "false" });
  });
  afterAll(() => s.close());

  test("both runs at once: the latest claim's write lands, the first one's writes nothing; one page, ready", async () => {
    const db = s.ctx.db;
    const brainId = await newBrain(s, "Harbour");
    const source = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Berth log", content: "Vessel Tern moored at berth 7 with nine crew." } }), 201)).source;
    const [first] = await claimDue(db, "replica-a", 60_000, ["ingest-source"], 1);
    expect(first!.subjectId).toBe(source.id);
    // Replica A stops answering: its lease runs out and replica B takes the job.
    await db.run(sql`UPDATE jobs SET lease_expires_at = 0 WHERE id = ${first!.id}`);
    const [again] = await claimDue(db, "replica-b", 60_000, ["ingest-source"], 1);
    expect(again).toMatchObject({ id: first!.id, attempts: first!.attempts + 1 });
    // Two handlers: two replicas, each with its own slugs in flight.
    const replicaA = ingestSourceHandler(s.ctx);
    const replicaB = ingestSourceHandler(s.ctx);
    try {
      const signal = new AbortController().signal;
      // Neither run fails: the fenced-out write is a stale one, as a write for an older revision is.
      expect(await Promise.all([replicaA.runBatch!([first!], signal, () => undefined), replicaB.runBatch!([again!], signal, () => undefined)])).toEqual([[undefined], [undefined]]);
    } finally {
      replicaA.close?.();
      replicaB.close?.();
    }
    const pages = (await pagesOf(s, brainId)).filter((p) => p.source_id === source.id);
    expect(pages.map((p) => p.slug)).toEqual(["berth-log"]);
    const [row] = await db.all<{ status: string; page_count: number }>(sql`SELECT status, page_count FROM sources WHERE id = ${source.id}`);
    expect(row).toEqual({ status: "ready", page_count: 1 });
  });

  test("the first run alone, after the job was claimed again: it writes nothing and the source waits for the latest claim", async () => {
    const db = s.ctx.db;
    const brainId = await newBrain(s, "Quay");
    const source = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Quay log", content: "Vessel Skua moored at the east quay." } }), 201)).source;
    const [first] = await claimDue(db, "replica-a", 60_000, ["ingest-source"], 1);
    await db.run(sql`UPDATE jobs SET lease_expires_at = 0 WHERE id = ${first!.id}`);
    const [again] = await claimDue(db, "replica-b", 60_000, ["ingest-source"], 1);
    const ingest = ingestSourceHandler(s.ctx);
    try {
      const signal = new AbortController().signal;
      expect(await ingest.runBatch!([first!], signal, () => undefined)).toEqual([undefined]);
      expect((await pagesOf(s, brainId)).filter((p) => p.source_id === source.id)).toEqual([]);
      expect(await ingest.runBatch!([again!], signal, () => undefined)).toEqual([undefined]);
    } finally {
      ingest.close?.();
    }
    expect((await pagesOf(s, brainId)).filter((p) => p.source_id === source.id).map((p) => p.slug)).toEqual(["quay-log"]);
  });
});
