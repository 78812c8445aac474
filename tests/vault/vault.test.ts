// A brain as an Obsidian vault over real HTTP: export (front matter, wikilinks, source files alongside),
// import into a new brain with the same graph, a hand-made Obsidian vault (folders, headings, aliases,
// links to notes that do not exist, a non-UTF-8 file name), and the hostile ones: a zip bomb, path
// traversal names, too many notes, too large a body, not a zip; and who may do it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync, zipSync, strToU8 } from "fflate";
import { buildZipFile, repeatedDeflate } from "../support/bombs";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, askBrain, newBrain, waitForSource } from "../support/sources";
import { splitFrontMatter } from "../../src/modules/vault/front-matter";

let s: TestServer;
let brainId: string;
let exported: Record<string, Uint8Array>;

const MAX_NOTES = 40;
const MAX_BYTES = 2 * 1024 * 1024;

/** A brain's graph as titles: every page title, and every link edge as "from title → to title" (or the slug it names, unresolved). */
async function graphOf(id: string) {
  const titles = await s.ctx.database.client.execute({ sql: "SELECT title FROM pages WHERE brain_id = ? ORDER BY title", args: [id] });
  const edges = await s.ctx.database.client.execute({
    sql: `SELECT f.title AS f, coalesce(t.title, '?' || l.to_slug) AS t FROM page_links l JOIN pages f ON f.id = l.from_page_id
      LEFT JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug WHERE l.brain_id = ?`,
    args: [id],
  });
  return { titles: titles.rows.map((r) => String(r.title)), edges: edges.rows.map((r) => `${r.f} → ${r.t}`).sort() };
}

const importZip = (id: string, zip: Uint8Array, init: { key?: string; type?: string } = {}) =>
  s.api(`/api/v1/brains/${id}/import`, { method: "POST", body: new Blob([zip as BlobPart]), headers: { "content-type": init.type ?? "application/zip" }, key: init.key });

const pageCount = async (id: string) => Number((await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM pages WHERE brain_id = ?", args: [id] })).rows[0]!.n);

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_VAULT_MAX_NOTES: String(MAX_NOTES), BRAINBOX_VAULT_MAX_BYTES: String(MAX_BYTES), BRAINBOX_VAULT_MAX_EXPANDED_BYTES: String(8 * 1024 * 1024) });
  brainId = await newBrain(s, "Harbour handbook");
  await addTextsReady(s, brainId, {
    "Marren harbour": "Marren harbour is run by the Osk Ferry Company. The harbour master Ada Lindqvist keeps the tide tables.",
    "Osk Ferry Company": "The Osk Ferry Company sails from Marren harbour to Osk island. Ada Lindqvist founded its pilot school.",
    "Tide tables": "Ada Lindqvist publishes the tide tables of Marren harbour every spring for the Osk Ferry Company.",
  });
  const text = "# Pilot school\n\nThe pilot school of the Osk Ferry Company trains harbour pilots.";
  const ticket = await expectJson(await s.api(`/api/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename: "pilot-school.md", contentType: "text/markdown", size: text.length } }), 201);
  expect((await fetch(ticket.uploadUrl, { method: "PUT", body: text, headers: { "content-type": "text/markdown" } })).status).toBeLessThan(300);
  expect((await waitForSource(s, brainId, ticket.sourceId)).status).toBe("ready");
  const res = await s.api(`/api/v1/brains/${brainId}/export`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  exported = unzipSync(new Uint8Array(await res.arrayBuffer()));
});

afterAll(() => s.close());

describe("export", () => {
  test("one <slug>.md per page with its front matter, the wikilinks as written, the source files alongside", async () => {
    const rows = (await s.ctx.database.client.execute({ sql: "SELECT slug, title, kind, markdown, revision FROM pages WHERE brain_id = ?", args: [brainId] })).rows;
    expect(rows.length).toBeGreaterThan(4);
    for (const page of rows) {
      const file = exported[`${page.slug}.md`];
      expect(file).toBeDefined();
      const { fields, body } = splitFrontMatter(new TextDecoder().decode(file!));
      expect(fields).toMatchObject({ title: page.title, kind: page.kind, slug: page.slug, revision: Number(page.revision), aliases: [page.title] });
      expect(body).toBe(String(page.markdown));
    }
    expect(rows.some((p) => p.kind === "concept")).toBe(true);
    expect(rows.some((p) => /\[\[[^\]]+\]\]/.test(String(p.markdown)))).toBe(true);
    const sourceFile = Object.keys(exported).find((n) => n.startsWith("_brainbox/sources/") && n.endsWith("/pilot-school.md"));
    expect(new TextDecoder().decode(exported[sourceFile!]!)).toContain("trains harbour pilots");
    const pilot = Object.values(exported).map((b) => splitFrontMatter(new TextDecoder().decode(b)).fields).find((f) => f.source_file === sourceFile);
    expect(pilot).toBeDefined();
    expect(JSON.parse(new TextDecoder().decode(exported["_brainbox/brain.json"]!)).brain.name).toBe("Harbour handbook");
  });

  test("round trip: the vault imported into a new brain gives the same graph (titles and link edges)", async () => {
    const copy = await newBrain(s, "Copy");
    const { import: result } = await expectJson(await importZip(copy, zipSync(exported)), 201);
    const original = await graphOf(brainId);
    expect(result.imported).toBe(original.titles.length);
    expect(result.skipped).toBe(2); // the source file and brain.json
    const imported = await graphOf(copy);
    expect(imported.titles).toEqual(original.titles);
    expect(imported.edges.length).toBeGreaterThan(0);
    expect(imported.edges).toEqual(original.edges);
    const audit = await s.ctx.database.client.execute({ sql: "SELECT action, details FROM audit_events WHERE target_id IN (?, ?) ORDER BY id", args: [brainId, copy] });
    expect(audit.rows.map((r) => r.action)).toEqual(["brain.exported", "brain.imported"]);
    // Answerable at once (the full-text index holds the imported pages). Concept pages arrive as notes, so
    // the answer may cite another page of the same fact than the original does (docs/backup.md).
    const question = "Who keeps the tide tables of Marren harbour?";
    expect((await askBrain(s, brainId, question)).answer).toContain("Ada Lindqvist keeps the tide tables");
    const after = await askBrain(s, copy, question);
    expect(after.answer).toContain("Ada Lindqvist keeps the tide tables");
    expect(after.citations.length).toBeGreaterThan(0);
    for (const c of after.citations) expect(imported.titles).toContain(c.title);
  });

  test("a viewer may not export or import (403); someone without access sees no brain (404)", async () => {
    const viewerKey = await newAccountKey(s.ctx.db, "Viewer");
    const { account } = await expectJson(await s.api("/api/v1/account", { key: viewerKey }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${account.id}`, { method: "PUT", json: { role: "viewer" } }), 200);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/export`, { key: viewerKey }), 403)).error.code).toBe("forbidden");
    expect((await expectJson(await importZip(brainId, zipSync(exported), { key: viewerKey }), 403)).error.code).toBe("forbidden");
    const strangerKey = await newAccountKey(s.ctx.db, "Stranger");
    expect((await s.api(`/api/v1/brains/${brainId}/export`, { key: strangerKey })).status).toBe(404);
    expect((await importZip(brainId, zipSync(exported), { key: strangerKey })).status).toBe(404);
  });
});

describe("import of an Obsidian vault", () => {
  test("titles from front matter or file names, links by file name, unresolved links kept, settings skipped", async () => {
    const id = await newBrain(s, "Obsidian");
    const vault = zipSync({
      "Welcome.md": strToU8("Start at [[Trips/Lighthouse walk]], see [[Lighthouse walk#Tides|the tides]] and [[Packing List]].\n\nNot yet written: [[Ghost Page]]."),
      "Trips/Lighthouse walk.md": strToU8("---\ntitle: 'The lighthouse walk'\ntags: [walks, coast]\n---\nBack to [[welcome]].\n\n```\n[[not a link in code]]\n```\n"),
      "Packing list.md": strToU8("---\naliases:\n  - Packing\n---\nBoots and a map. ![[map.png]]"),
      "map.png": new Uint8Array([137, 80, 78, 71]),
      ".obsidian/app.json": strToU8("{}"),
    });
    const { import: result } = await expectJson(await importZip(id, vault, { type: "application/x-zip-compressed" }), 201);
    expect(result).toMatchObject({ imported: 3, skipped: 2 });
    const graph = await graphOf(id);
    expect(graph.titles).toEqual(["Packing list", "The lighthouse walk", "Welcome"]);
    // An embed of an attachment stays as written: an unresolved link, as the attachment is not imported.
    expect(graph.edges).toEqual(["Packing list → ?map.png", "The lighthouse walk → Welcome", "Welcome → ?ghost-page", "Welcome → Packing list", "Welcome → The lighthouse walk"].sort());
    const { page } = await expectJson(await s.api(`/api/v1/brains/${id}/pages/welcome`), 200);
    expect(page.markdown).toContain("[[lighthouse-walk|the tides]]");
    expect(page.markdown).toContain("[[ghost-page|Ghost Page]]");
    const walk = (await expectJson(await s.api(`/api/v1/brains/${id}/pages/lighthouse-walk`), 200)).page;
    expect(walk.markdown).not.toContain("title:");
    expect(walk.markdown).toContain("[[not a link in code]]");
  });

  test("a second import of the same notes gets fresh slugs beside the first, linked among themselves", async () => {
    const id = await newBrain(s, "Twice");
    const vault = zipSync({ "A note.md": strToU8("See [[B note]]."), "B note.md": strToU8("Back to [[A note]].") });
    await expectJson(await importZip(id, vault), 201);
    const { import: second } = await expectJson(await importZip(id, vault), 201);
    expect(second.pages.map((p: any) => p.slug).sort()).toEqual(["a-note-2", "b-note-2"]);
    const graph = await graphOf(id);
    expect(graph.edges.length).toBe(4);
  });

  test("two imports into one brain at once: each whole, each with slugs of its own", async () => {
    const id = await newBrain(s, "At once");
    const notes = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`Note ${i}.md`, strToU8(`Note ${i} links [[Note ${(i + 1) % 30}]].`)]));
    const [a, b] = await Promise.all([importZip(id, zipSync(notes)), importZip(id, zipSync(notes))]);
    const slugs = [...(await expectJson(a, 201)).import.pages, ...(await expectJson(b, 201)).import.pages].map((p: any) => p.slug);
    expect(new Set(slugs).size).toBe(60);
    expect(await pageCount(id)).toBe(60);
    expect((await graphOf(id)).edges.length).toBe(60);
  });

  test("a file name that is not UTF-8 (code page 437, as old zip tools write) is read as such", async () => {
    const id = await newBrain(s, "Legacy zip");
    const zip = zipSync({ "cafQ.md": strToU8("Coffee notes, linking [[Menu]]."), "Menu.md": strToU8("Espresso.") }, { level: 0 });
    const marker = Buffer.from("cafQ.md");
    const bytes = Buffer.from(zip);
    for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + 1)) bytes[at + 3] = 0x82; // é in CP437
    const { import: result } = await expectJson(await importZip(id, new Uint8Array(bytes)), 201);
    expect(result.pages.find((p: any) => p.path === "café.md")).toMatchObject({ title: "café", slug: "cafe" });
    expect((await graphOf(id)).edges).toEqual(["café → Menu"]);
  });

  test("a note not in UTF-8 (Windows-1252, or UTF-16 with its byte order mark) is read as such", async () => {
    const id = await newBrain(s, "Old editor");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Über [[Café]]", "utf16le")]);
    const { import: result } = await expectJson(await importZip(id, zipSync({ "Café.md": new Uint8Array(Buffer.from("Caf\xe9 cr\xe8me.", "latin1")), "Über.md": new Uint8Array(utf16) })), 201);
    expect(result.imported).toBe(2);
    expect((await expectJson(await s.api(`/api/v1/brains/${id}/pages/cafe`), 200)).page.markdown).toBe("Café crème.");
    expect((await expectJson(await s.api(`/api/v1/brains/${id}/pages/uber`), 200)).page.markdown).toBe("Über [[cafe|Café]]");
  });

  test("a multipart form with the zip in its file field works too", async () => {
    const id = await newBrain(s, "Form");
    const form = new FormData();
    form.set("file", new Blob([zipSync({ "Only.md": strToU8("Just one note.") }) as BlobPart], { type: "application/zip" }), "vault.zip");
    const { import: result } = await expectJson(await s.api(`/api/v1/brains/${id}/import`, { method: "POST", body: form }), 201);
    expect(result.imported).toBe(1);
  });
});

test("the OpenAPI spec describes the vault's zip bodies", async () => {
  const spec = await expectJson(await s.api("/swagger/json"), 200);
  expect(Object.keys(spec.paths["/api/v1/brains/{brainId}/import"].post.requestBody.content).sort()).toEqual(["application/zip", "multipart/form-data"]);
  expect(Object.keys(spec.paths["/api/v1/brains/{brainId}/export"].get.responses["200"].content)).toEqual(["application/zip"]);
});

describe("hostile and oversized vaults: a clear error, nothing imported", () => {
  let id: string;
  beforeAll(async () => {
    id = await newBrain(s, "Target");
  });

  test("a zip bomb stops at BRAINBOX_VAULT_MAX_EXPANDED_BYTES (422)", async () => {
    const body = new TextEncoder().encode("All work and no play. ".repeat(48_000));
    const data = repeatedDeflate("# Bomb\n", body, 64, "\n"); // 64 MB inflated
    const bomb = buildZipFile([{ name: "bomb.md", data, inflatedSize: 0xfffffffe }]);
    expect(bomb.length).toBeLessThan(MAX_BYTES);
    const error = (await expectJson(await importZip(id, bomb), 422)).error;
    expect(error.message).toContain("(bomb.md) expands to more than 5 MB");
    // Notes under the one-note cap that together pass the vault's.
    const three = buildZipFile(["a.md", "b.md", "c.md"].map((name) => ({ name, data: repeatedDeflate("# Big\n", body, 3, "\n"), inflatedSize: 3 * body.length + 8 })));
    expect((await expectJson(await importZip(id, three), 422)).error.message).toContain("expands to more than 8 MB");
    expect(await pageCount(id)).toBe(0);
  });

  test("an entry named ../x.md (or absolute) refuses the whole vault, naming the entry", async () => {
    for (const name of ["../x.md", "notes/../../x.md", "/etc/x.md"]) {
      const zip = buildZipFile([{ name: "fine.md", data: strToU8("Fine.") }, { name, data: strToU8("Escaping.") }]);
      const error = (await expectJson(await importZip(id, zip), 422)).error;
      expect(error.message).toContain("unsafe path");
      expect(error.entry).toBe(name);
    }
    expect(await pageCount(id)).toBe(0);
  });

  test("more notes than BRAINBOX_VAULT_MAX_NOTES is 422; a body over BRAINBOX_VAULT_MAX_BYTES is 413", async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_NOTES + 1 }, (_, i) => [`Note ${i}.md`, strToU8(`Note ${i}.`)]));
    expect((await expectJson(await importZip(id, zipSync(many)), 422)).error.message).toContain(`at most ${MAX_NOTES}`);
    const big = zipSync({ "big.md": crypto.getRandomValues(new Uint8Array(MAX_BYTES + 1024)) }, { level: 0 });
    expect((await expectJson(await importZip(id, big), 413)).error.code).toBe("payload_too_large");
    expect(await pageCount(id)).toBe(0);
  });

  test("not a zip, no notes in it, or another content type", async () => {
    expect((await expectJson(await importZip(id, strToU8("plain text, not a zip")), 422)).error.message).toContain("not a zip container");
    expect((await expectJson(await importZip(id, zipSync({ "image.png": new Uint8Array([1, 2]) })), 422)).error.message).toContain("no Markdown notes");
    expect((await expectJson(await importZip(id, zipSync({ "a.md": strToU8("A") }), { type: "text/plain" }), 415)).error.code).toBe("unsupported_media_type");
    expect(await pageCount(id)).toBe(0);
  });
});
