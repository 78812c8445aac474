// The git kind against real repositories made on this machine: a bare repository read in place (a path
// under BRAINBOX_CONNECTOR_GIT_ROOTS) and the same kind of repository served over smart HTTP on loopback
// (`git http-backend`), cloned into the data dir. Only changed blobs are read and written; deletions pruned.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { allProcessed, createConnector, newBrain, sourcesOf, syncAndWait } from "./helpers";
import { makeRepo, serveRepos } from "./git-repo";

let s: TestServer;
let roots: string;
let outside: string;
let http: ReturnType<typeof serveRepos>;
beforeAll(async () => {
  roots = tempDir();
  outside = tempDir();
  http = serveRepos(roots);
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${http.port}`, BRAINBOX_CONNECTOR_GIT_ROOTS: roots });
});
afterAll(async () => {
  await s.close();
  http.stop();
});

const files = {
  "README.md": "# River survey\n\nThe survey team reads the gauges at the weir every morning.",
  "docs/boats.adoc": "= Boats\n\nThe survey boat is moored at the north pier.",
  "notes/tides.txt": "Tide tables are printed on the first day of each month.",
  "logo.png": "not a document, not selected",
  ".github/ci.md": "# CI\n\nHidden folders are not content.",
};

const rowsOf = async (brainId: string) =>
  (await s.ctx.database.client.execute({ sql: "SELECT id, external_id, revision, updated_at, content FROM sources WHERE brain_id = ? ORDER BY external_id", args: [brainId] })).rows.map((r) => ({ ...r }));

describe("git connector", () => {
  test("a repository on the server: first sync adds the documents, a re-sync of nothing writes nothing, a commit updates only what changed", async () => {
    const repo = makeRepo(roots, "survey", files);
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, {
      kind: "git",
      name: "Survey repo",
      config: { path: repo.bare, branch: "main", webUrl: "https://forge.example.org/survey/blob/{branch}/{path}" },
      schedule: "manual",
    });
    const first = await syncAndWait(s, brainId, c.id);
    expect(first).toMatchObject({ status: "succeeded", counts: { added: 3, updated: 0, unchanged: 0, removed: 0, failed: 0 } });
    const sources = await allProcessed(s, brainId);
    expect(sources.map((x) => x.title).sort()).toEqual(["Boats", "River survey", "tides"]);
    expect(sources.map((x) => x.url).sort()).toEqual([
      "https://forge.example.org/survey/blob/main/README.md",
      "https://forge.example.org/survey/blob/main/docs/boats.adoc",
      "https://forge.example.org/survey/blob/main/notes/tides.txt",
    ]);
    const rows = await rowsOf(brainId);
    expect(rows.map((r) => String(r.external_id).split(":").slice(1).join(":"))).toEqual(["README.md", "docs/boats.adoc", "notes/tides.txt"]);

    // Nothing changed: every blob id is the one stored, so nothing is read and no row is written.
    const second = await syncAndWait(s, brainId, c.id);
    expect(second).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 0, unchanged: 3, removed: 0, failed: 0 } });
    expect(await rowsOf(brainId)).toEqual(rows);

    // One file changed, one deleted, one added: only those are written.
    repo.commit({ "README.md": "# River survey\n\nThe gauges are now read twice a day.", "notes/tides.txt": null, "docs/sluice.md": "# Sluice\n\nThe sluice opens at high tide." });
    const third = await syncAndWait(s, brainId, c.id);
    expect(third).toMatchObject({ status: "succeeded", counts: { added: 1, updated: 1, unchanged: 1, removed: 1, failed: 0 } });
    const after = await allProcessed(s, brainId);
    expect(after.map((x) => x.title).sort()).toEqual(["Boats", "River survey", "Sluice"]);
    const boats = (await rowsOf(brainId)).find((r) => String(r.external_id).endsWith(":docs/boats.adoc"));
    expect(boats).toEqual(rows.find((r) => String(r.external_id).endsWith(":docs/boats.adoc")));
  });

  test("an https-style repository over smart HTTP: cloned once into the data dir, then fetched; the token is write-only", async () => {
    const repo = makeRepo(roots, "handbook", { "a.md": "# Alpha\n\nFirst page of the handbook.", "b.md": "# Beta\n\nSecond page of the handbook." });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, {
      kind: "git",
      name: "Handbook",
      config: { url: `${http.url}/handbook.git`, branch: "main", token: "forge-token-123" },
      schedule: "manual",
    });
    expect(c.secrets).toEqual({ token: "set" });
    expect(JSON.stringify(c)).not.toContain("forge-token-123");
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ status: "succeeded", counts: { added: 2 } });
    expect(existsSync(join(s.dataDir, "connectors", c.id, "repo.git"))).toBe(true);
    // Shallow: only the branch's newest commit was fetched.
    expect(existsSync(join(s.dataDir, "connectors", c.id, "repo.git", "shallow"))).toBe(true);
    const basic = `Basic ${Buffer.from("x-access-token:forge-token-123").toString("base64")}`;
    expect(http.requests.filter((r) => r.path.startsWith("/handbook.git/")).every((r) => r.auth === basic)).toBe(true);
    await allProcessed(s, brainId);
    const rows = await rowsOf(brainId);

    const before = http.requests.length;
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 0, unchanged: 2 } });
    // A fetch, not a clone: the refs are asked for; nothing changed, so no pack to download.
    const again = http.requests.slice(before);
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((r) => r.path.startsWith("/handbook.git/") && r.status === 200)).toBe(true);
    expect(await rowsOf(brainId)).toEqual(rows);

    repo.commit({ "b.md": "# Beta\n\nSecond page, rewritten." });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 1, unchanged: 1 } });
    const after = await allProcessed(s, brainId);
    expect(after.find((x) => x.title === "Beta")).toBeDefined();
    const changed = (await rowsOf(brainId)).find((r) => String(r.external_id).endsWith(":b.md"))!;
    expect(String(changed.content)).toContain("rewritten");

    // Deleted: its clone goes with it.
    await expectJson(await s.api(`/api/v1/brains/${brainId}/connectors/${c.id}`, { method: "DELETE" }), 200);
    expect(existsSync(join(s.dataDir, "connectors", c.id))).toBe(false);
  });
});

describe("git connector: bad input", () => {
  const create = (brainId: string, config: Record<string, unknown>) =>
    s.api(`/api/v1/brains/${brainId}/connectors`, { method: "POST", json: { kind: "git", name: "Bad", config, schedule: "manual" } });
  const refused = async (brainId: string, config: Record<string, unknown>, field: string) => {
    const body = await expectJson(await create(brainId, config), 422);
    expect(body.error.details?.field ?? body.error.field).toBe(field);
    return body.error.message as string;
  };

  test("refused when saved: a private address without the allow-list, plain http, a path outside the roots or through a symlink out of them, a folder that is no repository", async () => {
    const brainId = await newBrain(s);
    expect(await refused(brainId, { url: "https://10.1.2.3/org/repo.git" }, "config.url")).toMatch(/private|BRAINBOX_FETCH_ALLOW_HOSTS/i);
    expect(await refused(brainId, { url: "http://forge.example.org/org/repo.git" }, "config.url")).toContain("https");
    expect(await refused(brainId, { url: "https://user:pw@forge.example.org/r.git" }, "config.url")).toContain("credentials");
    const stray = makeRepo(outside, "stray", { "a.md": "# A\n\nOutside." });
    expect(await refused(brainId, { path: stray.bare }, "config.path")).toContain("BRAINBOX_CONNECTOR_GIT_ROOTS");
    symlinkSync(stray.bare, join(roots, "sneaky.git"));
    expect(await refused(brainId, { path: join(roots, "sneaky.git") }, "config.path")).toContain("leads to");
    mkdirSync(join(roots, "plain"), { recursive: true });
    expect(await refused(brainId, { path: join(roots, "plain") }, "config.path")).toContain("not a Git repository");
    expect(await refused(brainId, { path: join(roots, "nope") }, "config.path")).toContain("does not exist");
    expect(await refused(brainId, { path: "relative/repo" }, "config.path")).toContain("absolute");
    expect(await refused(brainId, { url: `${http.url}/x.git`, path: stray.bare }, "config.url")).toContain("not both");
    expect(await refused(brainId, { url: `${http.url}/x.git`, branch: "a..b" }, "config.branch")).toContain("branch");
    expect(await refused(brainId, { url: `${http.url}/x.git`, webUrl: "ftp://x/{path}" }, "config.webUrl")).toContain("URL template");
    expect(await refused(brainId, { url: `${http.url}/x.git`, include: ["/etc/*"] }, "config.include")).toContain("relative");
    expect(await sourcesOf(s, brainId)).toEqual([]);
  });

  test("a run fails in plain words: a URL that is no repository, a missing branch, a redirect to a private address, a forge that hangs", async () => {
    makeRepo(roots, "tiny", { "a.md": "# A\n\nTiny." });
    const site = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname.startsWith("/moved.git")
          ? new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest.git/info/refs?service=git-upload-pack" } })
          : new URL(req.url).pathname.startsWith("/hang.git")
            ? new Promise<Response>(() => {}) // never answers
            : new Response("<html><body>Just a web page</body></html>", { headers: { "content-type": "text/html" } }),
    });
    const t = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1`, BRAINBOX_CONNECTOR_GIT_ROOTS: roots });
    try {
      const brainId = await newBrain(t);
      const failed = async (config: Record<string, unknown>) => {
        const c = await createConnector(t, brainId, { kind: "git", name: "Bad", config, schedule: "manual" });
        const run = await syncAndWait(t, brainId, c.id);
        expect(run.status).toBe("failed");
        return run.errors.join("\n") as string;
      };
      expect(await failed({ url: `http://127.0.0.1:${site.port}/site` })).toContain("is not a Git repository");
      expect(await failed({ url: `${http.url}/missing.git` })).toContain("is not a Git repository");
      expect(await failed({ url: `${http.url}/tiny.git`, branch: "release" })).toContain('the branch "release" does not exist');
      expect(await failed({ path: join(roots, "tiny.git"), branch: "release" })).toContain('the branch "release" does not exist');
      expect(await failed({ url: `http://127.0.0.1:${site.port}/moved.git` })).toMatch(/refusing to fetch http:\/\/169\.254\.169\.254/);
      expect(await failed({ url: `http://127.0.0.1:${site.port}/hang.git`, timeoutMs: 1000 })).toContain("did not answer within 1000 ms");
      expect(await sourcesOf(t, brainId)).toEqual([]);
      // The server is still answering.
      expect((await t.api("/api/v1/brains")).status).toBe(200);
    } finally {
      await t.close();
      site.stop(true);
    }
  });
});
