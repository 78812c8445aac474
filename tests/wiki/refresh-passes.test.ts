// Concept refresh passes shared by the batches that finish while one runs (src/concepts/refresh.ts), on a
// real database: one pass after the running one serves them all, a caller's failing step fails only it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { refreshAllDirtyConcepts } from "../../src/concepts";
import { NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_JOB_CONCURRENCY: "1" });
});
afterAll(() => s.close());

const dirtyCount = async (brainId: string) =>
  Number((await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM concept_dirty WHERE brain_id = ?", args: [brainId] })).rows[0]!.n);
const markDirty = (brainId: string, concept: string) =>
  s.ctx.database.client.execute({ sql: "INSERT OR IGNORE INTO concept_dirty (brain_id, concept) VALUES (?, ?)", args: [brainId, concept] });

describe("concept refresh passes", () => {
  test("callers that come while a pass runs share the next pass; each caller's first step runs before it; a failing step fails its caller only", async () => {
    const brainId = await newBrain(s, "Passes");
    const deps = { db: s.ctx.db };
    // What each caller's first step saw: the dirty rows left when it ran.
    const seen: Record<string, number> = {};
    const step = (name: string, fail = false) => async () => {
      seen[name] = await dirtyCount(brainId);
      await markDirty(brainId, `concept-of-${name}`);
      if (fail) throw new Error(`${name} failed`);
    };
    for (let i = 0; i < 30; i++) await markDirty(brainId, `earlier-${i}`);
    const a = refreshAllDirtyConcepts(deps, brainId, undefined, step("a"));
    // B, C and D come while A's pass runs.
    const b = refreshAllDirtyConcepts(deps, brainId, undefined, step("b"));
    const c = refreshAllDirtyConcepts(deps, brainId, undefined, step("c", true));
    const d = refreshAllDirtyConcepts(deps, brainId, undefined, step("d"));
    const outcomes = await Promise.allSettled([a, b, c, d]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain("c failed");
    // A's pass cleaned all 31 rows before B's step; B, C and D ran back to back before one shared pass (each
    // saw the rows the ones before it marked), which then cleaned theirs.
    expect(seen).toEqual({ a: 30, b: 0, c: 1, d: 2 });
    expect(await dirtyCount(brainId)).toBe(0);
  });

  test("a caller after every pass ended starts a pass of its own; aborted callers alone stop a pass", async () => {
    const brainId = await newBrain(s, "Passes later");
    const deps = { db: s.ctx.db };
    await markDirty(brainId, "alone");
    await refreshAllDirtyConcepts(deps, brainId);
    expect(await dirtyCount(brainId)).toBe(0);
    await s.ctx.database.client.execute({
      sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO concept_dirty (brain_id, concept) SELECT ?, 'many-' || i FROM n",
      args: [brainId],
    });
    const stop = new AbortController();
    stop.abort(new Error("lease lost"));
    // More than one round of dirty rows: an aborted caller stops after the first round.
    // (Not expect().rejects: it waits without letting the pass's turns of the event loop run.)
    expect(await refreshAllDirtyConcepts(deps, brainId, stop.signal).then(() => "done", (e: Error) => e.message)).toBe("lease lost");
    expect(await dirtyCount(brainId)).toBeGreaterThan(0);
    // An aborted caller sharing a pass with one that is not: the pass goes on.
    const running = refreshAllDirtyConcepts(deps, brainId);
    const shared = [refreshAllDirtyConcepts(deps, brainId, stop.signal), refreshAllDirtyConcepts(deps, brainId)];
    await running;
    await Promise.all(shared);
    expect(await dirtyCount(brainId)).toBe(0);
  });
});
