// The ask history: a brain's (and a brain set's) asks by the caller, newest first, paged by cursor, and
// clearing them; other accounts' asks never show, bad input gets a clear error.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "History");
  const { source } = await addText(s, brainId, "Tides", "Tidal barrages were first built in France in 1966 at La Rance.");
  await waitForSource(s, brainId, source.id);
});
afterAll(() => s.close());

const ask = async (path: string, question: string, key?: string) => expectJson(await s.api(path, { method: "POST", json: { question }, key }), 200);

describe("ask history", () => {
  test("lists the caller's asks of a brain newest first, on both surfaces, paged by cursor", async () => {
    const questions = ["When was La Rance built?", "Where is La Rance?", "What is a barrage?"];
    for (const q of questions) await ask(`/api/v1/brains/${brainId}/ask`, q);
    await ask(`/api/brains/${brainId}/ask`, "Who built the first barrage?");
    const all = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`), 200);
    expect(all.asks.map((a: any) => a.question)).toEqual(["Who built the first barrage?", ...questions.toReversed()]);
    expect(all.nextCursor).toBeNull();
    expect(all.asks[0]).toMatchObject({ surface: "unversioned", thin: expect.any(Boolean) });
    expect(all.asks[0].id).toMatch(/\S/);
    expect(new Date(all.asks[0].createdAt).toISOString()).toBe(all.asks[0].createdAt);
    expect(await expectJson(await s.api(`/api/brains/${brainId}/asks`), 200)).toEqual(all);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks?limit=3${cursor ? `&cursor=${cursor}` : ""}`), 200);
      expect(page.asks.length).toBeLessThanOrEqual(3);
      seen.push(...page.asks.map((a: any) => a.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.asks.map((a: any) => a.id));
  });

  test("another account sees neither the brain's asks (404 on a private brain) nor the owner's asks of a public one", async () => {
    const other = await newAccountKey(s.ctx.db, "Reader");
    const hidden = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`, { key: other }), 404);
    expect(hidden.error.code).toBe("not_found");
    expect((await s.api(`/api/v1/brains/${brainId}/asks`, { method: "DELETE", key: other })).status).toBe(404);
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    await ask(`/api/v1/brains/${brainId}/ask`, "Reader's own question about tides", other);
    const theirs = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`, { key: other }), 200);
    expect(theirs.asks.map((a: any) => a.question)).toEqual(["Reader's own question about tides"]);
    const mine = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`), 200);
    expect(mine.asks.map((a: any) => a.question)).not.toContain("Reader's own question about tides");
  });

  test("bad input: limit out of range, a forged cursor, an unknown brain, no key", async () => {
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=2.5"]) {
      const error = (await expectJson(await s.api(`/api/v1/brains/${brainId}/asks?${q}`), 422)).error;
      expect(error).toEqual({ code: "invalid_request", field: "limit", message: "limit must be a whole number from 1 to 100" });
    }
    const forged = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks?cursor=${Buffer.from("nope").toString("base64url")}`), 422);
    expect(forged.error).toMatchObject({ code: "invalid_request", field: "cursor" });
    expect((await expectJson(await s.api("/api/v1/brains/brn_nothere/asks"), 404)).error.code).toBe("not_found");
    expect((await s.api(`/api/v1/brains/${brainId}/asks`, { key: null })).status).toBe(401);
  });

  test("a brain set keeps its own asks, apart from its primary's", async () => {
    const advisor = await newBrain(s, "Advisor");
    const { brainSet } = await expectJson(await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Pair", primaryBrainId: brainId, advisorBrainIds: [advisor] } }), 201);
    await ask(`/api/v1/brain-sets/${brainSet.id}/ask`, "Set question about barrages");
    const set = await expectJson(await s.api(`/api/v1/brain-sets/${brainSet.id}/asks`), 200);
    expect(set.asks.map((a: any) => [a.question, a.surface])).toEqual([["Set question about barrages", "brain-set"]]);
    for (const c of set.asks[0].citations) expect(c).toMatchObject({ brain: { id: expect.any(String), kind: expect.any(String) }, slug: expect.any(String), url: expect.stringContaining(c.brain.id) });
    // Another set with the same primary keeps its own history.
    const { brainSet: other } = await expectJson(await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Other pair", primaryBrainId: brainId, advisorBrainIds: [advisor] } }), 201);
    expect((await expectJson(await s.api(`/api/v1/brain-sets/${other.id}/asks`), 200)).asks).toEqual([]);
    const brain = await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`), 200);
    expect(brain.asks.map((a: any) => a.question)).not.toContain("Set question about barrages");
    expect(await expectJson(await s.api(`/api/v1/brain-sets/${brainSet.id}/asks`, { method: "DELETE" }), 200)).toEqual({ deleted: 1 });
    expect((await expectJson(await s.api(`/api/v1/brain-sets/${brainSet.id}/asks`), 200)).asks).toEqual([]);
    expect((await expectJson(await s.api("/api/v1/brain-sets/bs_nothere/asks"), 404)).error.code).toBe("not_found");
  });

  test("clearing removes the caller's asks of the brain only; the quota already spent stays spent", async () => {
    const before = await expectJson(await s.api("/api/v1/account"), 200);
    const { deleted } = await expectJson(await s.api(`/api/brains/${brainId}/asks`, { method: "DELETE" }), 200);
    expect(deleted).toBe(4);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`), 200)).asks).toEqual([]);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`, { method: "DELETE" }), 200)).deleted).toBe(0);
    const after = await expectJson(await s.api("/api/v1/account"), 200);
    expect(after.usage).toEqual(before.usage);
  });

  test("each ask keeps its answer and cited pages, so it re-opens without asking again", async () => {
    const asked = await ask(`/api/v1/brains/${brainId}/ask`, "When were tidal barrages first built in France?");
    expect(asked.thin).toBe(false);
    const [kept] = (await expectJson(await s.api(`/api/v1/brains/${brainId}/asks?limit=1`), 200)).asks;
    expect(kept.id).toBe(asked.id);
    expect(kept.answerMd).toContain("1966");
    expect(kept.answerMd).toMatch(/\[\[[^\]]+\]\]/); // [[ref]] citations, as the unversioned answerMd
    expect(kept.citations).toEqual(asked.citations); // {slug, title, url}: the v1 answer's own citations
    // A thin answer is kept as thin, with no citations.
    const thin = await ask(`/api/v1/brains/${brainId}/ask`, "What colour is the Andromeda galaxy's third moon?");
    const [keptThin] = (await expectJson(await s.api(`/api/v1/brains/${brainId}/asks?limit=1`), 200)).asks;
    expect(keptThin).toMatchObject({ id: thin.id, thin: thin.thin, citations: [] });
  });
});
