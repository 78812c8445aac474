// Roles on a brain over real HTTP (issue 56): a viewer's key is refused every write route (403 forbidden,
// nothing changed) yet reads and asks; an editor adds a source and edits a page but cannot share or
// delete; a stranger gets 404 on every route, as for a brain that does not exist; MCP follows the same rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/secrets";
import { connectMcp } from "../mcp/support";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { person, share, type Person } from "./support";

let s: TestServer;
let brainId: string;
let sourceId: string;
let slug: string;
let viewer: Person;
let editor: Person;
let stranger: Person;

beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Handbook");
  const { source } = await addText(s, brainId, "Tides", "Tides are caused by the gravity of the moon and the sun pulling on the oceans.");
  sourceId = source.id;
  await waitForSource(s, brainId, sourceId);
  const pages = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages`), 200);
  slug = pages.pages[0].slug;
  [viewer, editor, stranger] = await Promise.all([person(s, "Viewer"), person(s, "Editor"), person(s, "Stranger")]);
  await share(s, brainId, viewer.id, "viewer");
  await share(s, brainId, editor.id, "editor");
});
afterAll(() => s.close());

const text = { title: "Extra", content: "Zeppelins float because hydrogen is lighter than air." };
/** Every route that changes the brain, its sources, pages, shares or paid settings (or reads owner-only data). */
const writeRoutes = (): Array<[string, string, unknown?]> => [
  ["PATCH", `/api/v1/brains/${brainId}`, { name: "Renamed" }],
  ["DELETE", `/api/v1/brains/${brainId}`],
  ["POST", `/api/v1/brains/${brainId}/sources`, text],
  ["POST", `/api/brains/${brainId}/sources`, { type: "text", ...text }],
  ["POST", `/api/v1/brains/${brainId}/sources/batch`, { sources: [text] }],
  ["POST", `/api/brains/${brainId}/sources/batch`, { sources: [{ type: "text", ...text }] }],
  ["DELETE", `/api/v1/brains/${brainId}/sources/${sourceId}`],
  ["DELETE", `/api/brains/${brainId}/sources/${sourceId}`],
  ["POST", `/api/v1/brains/${brainId}/sources/${sourceId}/reprocess`],
  ["POST", `/api/brains/${brainId}/sources/${sourceId}/reprocess`],
  ["POST", `/api/v1/brains/${brainId}/sources/upload-url`, { filename: "a.txt", contentType: "text/plain", size: 5 }],
  ["POST", `/api/brains/${brainId}/sources/upload-url`, { filename: "a.txt", contentType: "text/plain", size: 5 }],
  ["PUT", `/api/v1/brains/${brainId}/pages/${slug}`, { markdown: "Vandalised." }],
  ["PUT", `/api/brains/${brainId}/pages/${slug}`, { markdown: "Vandalised." }],
  ["PUT", `/api/v1/brains/${brainId}/paid`, { priceAtomic: "10000", payTo: "0x0000000000000000000000000000000000000001", visibility: "public" }],
  ["DELETE", `/api/v1/brains/${brainId}/paid`],
  ["GET", `/api/v1/brains/${brainId}/payments`],
  ["GET", `/api/v1/brains/${brainId}/shares`],
  ["PUT", `/api/v1/brains/${brainId}/shares/accounts/${stranger.id}`, { role: "viewer" }],
  ["DELETE", `/api/v1/brains/${brainId}/shares/accounts/${editor.id}`],
  ["POST", "/api/v1/invitations", { email: "someone@example.test", brainId, brainRole: "viewer" }],
];
const call = (key: string, [method, path, json]: [string, string, unknown?]) => s.api(path, { method, key, ...(json === undefined ? {} : { json }) });

/** What the brain looks like to its owner: name, sources, the page's text, shares. */
async function snapshot() {
  const brain = (await expectJson(await s.api(`/api/v1/brains/${brainId}`), 200)).brain;
  const sources = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200)).sources.map((x: any) => [x.id, x.status]);
  const page = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
  const shares = (await expectJson(await s.api(`/api/v1/brains/${brainId}/shares`), 200)).shares;
  return { name: brain.name, visibility: brain.visibility, paid: brain.paid, sources, markdown: page.markdown, revision: page.revision, shares };
}

describe("roles on a brain", () => {
  test("a viewer's key: every write route is 403 forbidden and nothing changes", async () => {
    const before = await snapshot();
    for (const route of writeRoutes()) {
      const res = await call(viewer.key, route);
      const body = await expectJson(res, 403).catch((e) => {
        throw new Error(`${route[0]} ${route[1]}: ${e.message}`);
      });
      expect(body.error.code).toBe("forbidden");
    }
    expect(await snapshot()).toEqual(before);
  });

  test("a viewer reads, asks and gets context, and sees the role in the lists", async () => {
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { key: viewer.key }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/graph`, { key: viewer.key }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { key: viewer.key }), 200);
    const answer = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "What causes tides?" }, key: viewer.key }), 200);
    expect(answer.citations.length).toBeGreaterThan(0);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query: "tides" }, key: viewer.key }), 200);
    const v1 = await expectJson(await s.api("/api/v1/brains", { key: viewer.key }), 200);
    expect(v1.brains.find((b: any) => b.id === brainId)).toMatchObject({ id: brainId, name: "Handbook", role: "viewer" });
    const one = await expectJson(await s.api(`/api/v1/brains/${brainId}`, { key: viewer.key }), 200);
    expect(one.brain).toMatchObject({ role: "viewer", owned: false });
    const shared = await expectJson(await s.api("/api/v1/shared-with-me", { key: viewer.key }), 200);
    expect(shared.brains).toEqual([expect.objectContaining({ id: brainId, role: "viewer" })]);
    // The owner's own brains are not "shared with" the owner.
    expect((await expectJson(await s.api("/api/v1/shared-with-me"), 200)).brains).toEqual([]);
  });

  test("an editor adds a source and edits a page, but cannot share, rename or delete", async () => {
    const added = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Moon", content: "The moon orbits the earth every 27 days." }, key: editor.key }), 201);
    await waitForSource(s, brainId, added.source.id);
    const edited = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { method: "PUT", json: { markdown: "Tides follow the moon." }, key: editor.key }), 200);
    expect(edited.page.markdown).toContain("Tides follow the moon.");
    for (const route of [writeRoutes()[0]!, writeRoutes()[1]!, writeRoutes()[18]!]) expect((await expectJson(await call(editor.key, route), 403)).error.code).toBe("forbidden");
  });

  test("a stranger gets 404 on every route of the brain, like a brain that does not exist", async () => {
    const reads: Array<[string, string, unknown?]> = [
      ["GET", `/api/v1/brains/${brainId}`],
      ["GET", `/api/v1/brains/${brainId}/sources`],
      ["GET", `/api/v1/brains/${brainId}/pages`],
      ["GET", `/api/v1/brains/${brainId}/graph`],
      ["GET", `/api/v1/brains/${brainId}/asks`],
      ["POST", `/api/v1/brains/${brainId}/ask`, { question: "What causes tides?" }],
      ["POST", `/api/brains/${brainId}/ask`, { question: "What causes tides?" }],
      ["POST", `/api/v1/brains/${brainId}/context`, { query: "tides" }],
    ];
    for (const route of [...reads, ...writeRoutes()]) {
      if (route[1] === "/api/v1/invitations") continue; // not a brain path: its brainId is checked the same way below
      const body = await expectJson(await call(stranger.key, route), 404).catch((e) => {
        throw new Error(`${route[0]} ${route[1]}: ${e.message}`);
      });
      expect(body.error.code).toBe("not_found");
    }
    expect((await expectJson(await call(stranger.key, writeRoutes().at(-1)!), 404)).error.code).toBe("not_found");
    expect((await expectJson(await s.api("/api/v1/shared-with-me", { key: stranger.key }), 200)).brains).toEqual([]);
  });

  test("MCP: a viewer's add_source is refused as forbidden; a stranger's read is not found", async () => {
    const asViewer = await connectMcp(s.url, viewer.key);
    const refused = await asViewer.call("add_source", { brainId, kind: "text", title: "X", content: "Nope." });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error.code).toBe("forbidden");
    const listed = await asViewer.call("list_sources", { brainId });
    expect(listed.isError).toBeFalsy();
    await asViewer.close();
    const asStranger = await connectMcp(s.url, stranger.key);
    const hidden = await asStranger.call("list_sources", { brainId });
    expect(hidden.structuredContent.error.code).toBe("not_found");
    await asStranger.close();
  });

  test("an OAuth access token of the viewer: every scope granted, still only a viewer (scope and role both apply)", async () => {
    const token = `bb_at_${crypto.randomUUID().replaceAll("-", "")}`;
    const c = s.ctx.database.client;
    await c.execute("INSERT INTO oauth_clients (id, auth_method, name, redirect_uris, grant_types, metadata) VALUES ('cli_roles', 'none', 'Client', '[]', '[]', '{}')");
    await c.execute({ sql: "INSERT INTO oauth_grants (id, account_id, client_id, scope) VALUES ('grt_roles', ?, 'cli_roles', 'brains:read ask sources:write brains:write')", args: [viewer.id] });
    await c.execute({ sql: "INSERT INTO oauth_tokens (hash, kind, grant_id, expires_at) VALUES (?, 'access', 'grt_roles', ?)", args: [sha256Hex(token), Date.now() + 3_600_000] });
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { key: token }), 200);
    for (const route of [writeRoutes()[2]!, writeRoutes()[12]!, writeRoutes()[0]!])
      expect((await expectJson(await call(token, route), 403)).error.code).toBe("forbidden");
    // A stranger's token with every scope: 404, as for the stranger's key.
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { key: stranger.key }), 404)).error.code).toBe("not_found");
  });

  test("the last owner cannot leave or step down (409); with a second owner they can", async () => {
    const owner = (await expectJson(await s.api("/api/v1/account"), 200)).account.id;
    const leave = await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${owner}`, { method: "DELETE" }), 409);
    expect(leave.error.code).toBe("conflict");
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${owner}`, { method: "PUT", json: { role: "editor" } }), 409)).error.code).toBe("conflict");
    await share(s, brainId, editor.id, "owner");
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${owner}`, { method: "PUT", json: { role: "editor" } }), 200);
    // Now the editor-turned-owner is the last owner, and the first owner (an editor) may not share any more.
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${editor.id}`, { method: "DELETE", key: editor.key }), 409)).error.code).toBe("conflict");
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/shares`), 403)).error.code).toBe("forbidden");
    await share(s, brainId, owner, "owner", "account", editor.key);
    // A viewer may leave (their own share), and the brain then is 404 for them.
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${viewer.id}`, { method: "DELETE", key: viewer.key }), 204).catch(async () => {
      throw new Error("viewer could not leave");
    });
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { key: viewer.key }), 404);
  });

  test("bad share input: unknown grantee 404, bad role 422, unknown kind of grantee 404", async () => {
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/acc_nobody`, { method: "PUT", json: { role: "viewer" } }), 404)).error.code).toBe("not_found");
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/teams/team_nobody`, { method: "PUT", json: { role: "viewer" } }), 404)).error.field).toBe("grantee");
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${stranger.id}`, { method: "PUT", json: { role: "god" } }), 422);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/robots/${stranger.id}`, { method: "PUT", json: { role: "viewer" } }), 404)).error.code).toBe("route_not_found");
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${stranger.id}`, { method: "DELETE" }), 404);
  });
});
