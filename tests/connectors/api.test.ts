// Connectors as a resource: create, list, get, patch, delete; write-only secrets; schedules; field-named
// 422s; owner-only writes; runs one at a time; the scheduler.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { waitFor } from "../support/wait";
import { createConnector, finished, newBrain, runs, sourcesOf, sync, syncAndWait } from "./helpers";
import { startSite, type Site } from "./site";

let s: TestServer;
let site: Site;
beforeAll(async () => {
  site = startSite();
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_CONNECTOR_SCHEDULER_MS: "100" });
});
afterAll(async () => {
  await s.close();
  site.stop();
});

const base = (brainId: string) => `/api/v1/brains/${brainId}/connectors`;
const post = (path: string, json: unknown, key?: string) => s.api(path, { method: "POST", json, key });
const sql = async (text: string, ...args: string[]) => (await s.ctx.database.client.execute({ sql: text, args })).rows;

describe("connectors API", () => {
  test("create, list, get, patch and delete; secrets are write-only and stored encrypted", async () => {
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, {
      kind: "website",
      name: "Docs",
      config: { startUrls: [`${site.url}/docs/`], headers: { "X-Api-Key": "hunter2-secret" } },
      schedule: "every 6h",
    });
    expect(c).toMatchObject({ kind: "website", name: "Docs", schedule: "every 6h", paused: false, secrets: { headers: { "X-Api-Key": "set" } } });
    expect(c.config.headers).toBeUndefined();
    expect(c.nextRunAt).not.toBeNull(); // a scheduled connector syncs at once, then on its schedule
    const [row] = await sql("SELECT config, secrets FROM connectors WHERE id = ?", c.id);
    expect(String(row!.config)).not.toContain("hunter2");
    expect(String(row!.secrets)).not.toContain("hunter2");
    expect(String(row!.secrets)).toStartWith("v1.");

    const list = await expectJson(await s.api(base(brainId)), 200);
    expect(list.connectors.map((x: any) => x.id)).toEqual([c.id]);
    expect(JSON.stringify(list)).not.toContain("hunter2");
    const one = await expectJson(await s.api(`${base(brainId)}/${c.id}`), 200);
    expect(one.connector.id).toBe(c.id);

    // A config without its secret keys keeps them; null removes one.
    const patched = await expectJson(await s.api(`${base(brainId)}/${c.id}`, { method: "PATCH", json: { name: "Docs site", config: { startUrls: [`${site.url}/docs/`], maxPages: 10 }, paused: true } }), 200);
    expect(patched.connector).toMatchObject({ name: "Docs site", paused: true, nextRunAt: null, config: { maxPages: 10 }, secrets: { headers: { "X-Api-Key": "set" } } });
    const cleared = await expectJson(await s.api(`${base(brainId)}/${c.id}`, { method: "PATCH", json: { config: { startUrls: [`${site.url}/docs/`], headers: null } } }), 200);
    expect(cleared.connector.secrets).toEqual({});

    const gone = await expectJson(await s.api(`${base(brainId)}/${c.id}`, { method: "DELETE" }), 200);
    expect(gone).toEqual({ deleted: true, removedSources: 0 });
    await expectJson(await s.api(`${base(brainId)}/${c.id}`), 404);
  });

  test("invalid kinds, names, configs and schedules answer 422 naming the field", async () => {
    const brainId = await newBrain(s);
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: "ftp", name: "x" }, "kind"],
      [{ kind: "website", name: "" , config: { startUrls: [`${site.url}/`] } }, "name"],
      [{ kind: "website", name: "x", config: {} }, "config.startUrls"],
      [{ kind: "website", name: "x", config: { startUrls: ["ftp://example.com/"] } }, "config.startUrls[0]"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`], maxPages: 0 } }, "config.maxPages"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`], include: ["docs"] } }, "config.include"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`], colour: "red" } }, "config.colour"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`], headers: { Host: "evil" } } }, "config.headers.Host"],
      [{ kind: "website", name: "x", config: "not an object" }, "config"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`] }, schedule: "every 5 fortnights" }, "schedule"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`] }, schedule: "every 10s" }, "schedule"],
      [{ kind: "website", name: "x", config: { startUrls: [`${site.url}/`] }, schedule: "61 * * * *" }, "schedule"],
      [{ kind: "feed", name: "x", config: {} }, "config.url"],
      [{ kind: "links", name: "x", config: { includeConnectorSources: "yes" } }, "config.includeConnectorSources"],
    ];
    for (const [body, field] of cases) {
      const err = await expectJson(await post(base(brainId), body), 422);
      expect({ field: err.error?.field ?? err.field, code: err.error?.code ?? err.code }).toEqual({ field, code: "invalid_request" });
    }
    expect(await expectJson(await s.api(base(brainId)), 200)).toEqual({ connectors: [] });
  });

  test("a private address without the allow-list is refused when saved", async () => {
    const plain = await startTestServer({});
    try {
      const brainId = await newBrain(plain);
      const res = await plain.api(`/api/v1/brains/${brainId}/connectors`, { method: "POST", json: { kind: "website", name: "x", config: { startUrls: [`${site.url}/`] } } });
      const err = await expectJson(res, 422);
      expect(JSON.stringify(err)).toContain("config.startUrls[0]");
    } finally {
      await plain.close();
    }
  });

  test("schedules: intervals, ISO durations, seconds and cron expressions are accepted", async () => {
    const brainId = await newBrain(s);
    const made = [];
    for (const schedule of ["manual", "every 30m", "PT6H", 3600, "0 3 * * 1"]) {
      const c = await createConnector(s, brainId, { kind: "website", name: `s ${schedule}`, config: { startUrls: [`${site.url}/none`] }, schedule, paused: true });
      made.push(c.schedule);
    }
    expect(made).toEqual(["manual", "every 30m", "every 6h", "every 1h", "0 3 * * 1"]);
  });

  test("writes are the owner's: another account cannot create, sync or delete", async () => {
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Mine", config: { startUrls: [`${site.url}/none`] } });
    const other = await newAccountKey(s.ctx.db);
    expect((await post(base(brainId), { kind: "website", name: "x", config: { startUrls: [`${site.url}/`] } }, other)).status).toBe(404);
    expect((await post(`${base(brainId)}/${c.id}/sync`, {}, other)).status).toBe(404);
    expect((await s.api(`${base(brainId)}/${c.id}`, { method: "DELETE", key: other })).status).toBe(404);
    expect((await s.api(`${base(brainId)}/${c.id}`, { key: null })).status).toBe(401);
  });

  test("two syncs at once: the second is refused with 409 while the first runs; never both", async () => {
    site.pages.set("/slow/1", { title: "Slow", body: "A page that takes its time." });
    site.hang.add("/slow/1");
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Slow", config: { startUrls: [`${site.url}/slow/1`], maxDepth: 0 } });
    const first = await sync(s, brainId, c.id);
    const second = await post(`${base(brainId)}/${c.id}/sync`, {});
    const err = await expectJson(second, 409);
    expect(err.error?.code ?? err.code).toBe("conflict");
    const [active] = await sql("SELECT count(*) AS n FROM connector_runs WHERE connector_id = ? AND status IN ('queued','running')", c.id);
    expect(Number(active!.n)).toBe(1);
    site.hang.delete("/slow/1");
  });

  test("five syncs sent at once: exactly one run starts, the others are refused 409", async () => {
    site.pages.set("/race/1", { title: "Race", body: "A page synced by five callers at once." });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Race", config: { startUrls: [`${site.url}/race/1`], maxDepth: 0 } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(`${base(brainId)}/${c.id}/sync`, {})));
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409]);
    const run = (await answers.find((r) => r.status === 202)!.json()).run;
    expect(await finished(s, brainId, c.id, run.id)).toMatchObject({ status: "succeeded", counts: { added: 1 } });
    expect(await runs(s, brainId, c.id)).toHaveLength(1);
    const jobs = await sql("SELECT count(*) AS n FROM jobs WHERE kind = 'connector-sync' AND subject_id = ?", c.id);
    expect(Number(jobs[0]!.n)).toBe(1);
  });

  test("deleting a connector while it runs stops the run; removeSources removes what it made", async () => {
    for (let i = 0; i < 6; i++) site.pages.set(`/del/${i}`, { title: `Del ${i}`, body: `Deletion page ${i} about sluice gates.`, links: [`/del/${i + 1}`] });
    site.hang.add("/del/3");
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Del", config: { startUrls: [`${site.url}/del/0`] } });
    const run = await sync(s, brainId, c.id);
    await waitFor(async () => (await sourcesOf(s, brainId)).length >= 3);
    const res = await expectJson(await s.api(`${base(brainId)}/${c.id}`, { method: "DELETE", json: { removeSources: true } }), 200);
    expect(res.deleted).toBe(true);
    expect(res.removedSources).toBeGreaterThanOrEqual(3);
    site.hang.delete("/del/3");
    await Bun.sleep(200);
    expect(await sourcesOf(s, brainId)).toEqual([]);
    expect(await sql("SELECT id FROM connector_runs WHERE id = ?", run.id)).toEqual([]);
    expect(await sql("SELECT * FROM sources WHERE brain_id = ?", brainId)).toEqual([]);
  });

  test("deleting without removeSources keeps the sources as the brain's own", async () => {
    site.pages.set("/keep/1", { title: "Kept", body: "A page that stays after its connector goes." });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Keep", config: { startUrls: [`${site.url}/keep/1`], maxDepth: 0 } });
    await syncAndWait(s, brainId, c.id);
    await expectJson(await s.api(`${base(brainId)}/${c.id}?removeSources=false`, { method: "DELETE" }), 200);
    const left = await sourcesOf(s, brainId);
    expect(left.map((x) => x.title)).toEqual(["Kept"]);
    const [row] = await sql("SELECT connector_id FROM sources WHERE id = ?", left[0].id);
    expect(row!.connector_id).toBeNull();
  });

  test("the scheduler starts a due run by itself", async () => {
    site.pages.set("/sched/1", { title: "Scheduled", body: "A page read on a schedule." });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Sched", config: { startUrls: [`${site.url}/sched/1`], maxDepth: 0 }, schedule: "every 1h" });
    let all: any[] = [];
    await waitFor(async () => (all = await runs(s, brainId, c.id)).length > 0);
    expect(all[0].trigger).toBe("schedule");
    const run = await finished(s, brainId, c.id, all[0].id);
    expect(run).toMatchObject({ status: "succeeded", counts: { added: 1 } });
    const view = (await expectJson(await s.api(`${base(brainId)}/${c.id}`), 200)).connector;
    expect(Date.parse(view.nextRunAt)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(view.lastRun.id).toBe(run.id);
  });
});
