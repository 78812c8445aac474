// Issue 60: spreadsheets, slides and e-books made by the test (exceljs writes the XLSX; the PPTX, EPUB, ODT and
// ODS are zipped from XML strings) are uploaded over real HTTP, become pages, are found by /context and cited
// by /ask; a sheet answers "which region had the highest revenue in Q3?" from its rows; a link serving an
// XLSX is read the same way, and a zip is read as what it holds, whatever its name and label say.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MEDIA, makeEpub, makeOds, makeOdt, makePptx, makeXlsx } from "../support/office-files";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { askBrain, newBrain, pagesOf, uploadFile, waitForSource } from "../support/sources";

let s: TestServer;
let site: ReturnType<typeof Bun.serve>;
let brainId: string;
let workbook: Uint8Array;
let workbookFleet: Uint8Array;
const ready: Record<string, any> = {};

const upload = (filename: string, contentType: string, bytes: Uint8Array) => uploadFile(s, brainId, filename, contentType, bytes);

const context = async (query: string) => expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query } }), 200);
/** Whether /ask cited one of the source's pages. */
const citesSource = async (body: any, sourceId: string) => {
  const slugs = new Set((await pagesOfSource(sourceId)).map((p) => p.slug));
  return body.citations.some((c: any) => slugs.has(c.slug));
};
const pagesOfSource = async (sourceId: string) => (await pagesOf(s, brainId)).filter((p) => p.source_id === sourceId);

beforeAll(async () => {
  workbook = await makeXlsx(
    {
      "Q2 revenue": [
        ["Region", "Revenue", "Deals"],
        ["North", 81_000, 40],
        ["South", 12_000, 9],
        ["West", 30_500, 17],
      ],
      "Q3 revenue": [
        ["Region", "Revenue", "Deals"],
        ["North", 42_000, 21],
        // A formula: read as the value it was last calculated to.
        ["South", { formula: "C4*2500", result: 61_500 }, 24],
        ["West", 38_250, 19],
      ],
    },
    "Regional sales 2026",
  );
  workbookFleet = await makeXlsx({ Vans: [["Van", "Depot", "Odometer km"], ["VN-101", "Leiria", 182_400], ["VN-102", "Coimbra", 96_100]] }, "Fleet register");
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) =>
      new URL(req.url).pathname === "/exports/fleet"
        ? new Response(new Blob([workbookFleet as BlobPart]), { headers: { "content-type": MEDIA.xlsx } })
        : new Response("nope", { status: 404 }),
  });
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` });
  brainId = await newBrain(s, "Documents");
  const uploads: Record<string, [string, string, Uint8Array]> = {
    xlsx: ["regional-sales.xlsx", MEDIA.xlsx, workbook],
    ods: ["warehouses.ods", MEDIA.ods, makeOds({ Warehouses: [["Warehouse", "City", "Capacity"], ["Hall A", "Porto", 1200], ["Hall B", "Braga", 4800], ["Hall C", "Faro", 950]] }, "Warehouse capacity")],
    pptx: [
      "kickoff.pptx",
      MEDIA.pptx,
      makePptx([
        { title: "Welcome aboard", bullets: ["Meet your onboarding buddy on day one"], notes: "Introduce the buddies by name." },
        { title: "Security basics", bullets: ["Rotate the badge PIN every 90 days", "Lock the screen when leaving the desk"], notes: "Mention the phishing drill on Thursday." },
      ]),
    ],
    epub: [
      "keeper.epub",
      MEDIA.epub,
      makeEpub("The Lighthouse Keeper's Manual", {
        "Lamp maintenance": ["The lamp lens is polished with chamois leather every morning at eight."],
        "Fog signals": ["The foghorn sounds twice every thirty seconds while visibility is under one mile."],
      }),
    ],
    odt: ["travel.odt", MEDIA.odt, makeOdt("Travel policy", ["# Travel policy", "Economy class is booked for flights under six hours.", "## Hotels", "- Hotels are booked through the travel desk"])],
    tsv: ["shifts.tsv", MEDIA.tsv, new TextEncoder().encode("Shift\tSupervisor\tStarts\nMorning\tAmara Okafor\t06:00\nNight\tLeon Brandt\t22:00\n")],
  };
  const ids: Record<string, string> = Object.fromEntries(await Promise.all(Object.entries(uploads).map(async ([kind, [name, type, bytes]]) => [kind, await upload(name, type, bytes)])));
  for (const [kind, id] of Object.entries(ids)) ready[kind] = await waitForSource(s, brainId, id);
});
afterAll(async () => {
  await s.close();
  site.stop(true);
});

describe("each format becomes pages, found and cited", () => {
  test("every upload is ready with pages", () => {
    for (const [kind, source] of Object.entries(ready)) expect({ kind, status: source.status, error: source.error }).toEqual({ kind, status: "ready", error: null });
  });

  test("XLSX: each sheet a page whose table keeps its header; the Q3 question is answered from the Q3 sheet's rows", async () => {
    const pages = await pagesOfSource(ready.xlsx.id);
    expect(pages.map((p) => p.title).sort()).toEqual(["Regional sales 2026 — Q2 revenue", "Regional sales 2026 — Q3 revenue"]);
    const q3 = pages.find((p) => p.title.endsWith("Q3 revenue"))!;
    expect(q3.markdown).toContain("| Region | Revenue | Deals |");
    expect(q3.markdown).toContain("| South | 61500 | 24 |");
    const body = await askBrain(s, brainId, "Which region had the highest revenue in Q3?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Region: South");
    expect(body.answer).not.toContain("Region: North");
    expect(body.citations.map((c: any) => c.slug)).toContain(q3.slug);
  });

  test("ODS: a superlative over its sheet; the trailing run of a million empty rows is no rows", async () => {
    const [page] = await pagesOfSource(ready.ods.id);
    expect(page!.markdown).toContain("| Hall B | Braga | 4800 |");
    expect(page!.markdown.split("\n").filter((l) => l.startsWith("|"))).toHaveLength(5);
    const body = await askBrain(s, brainId, "Which warehouse has the largest capacity?");
    expect(body.answer).toContain("Warehouse: Hall B");
    expect(body.citations.map((c: any) => c.slug)).toContain(page!.slug);
  });

  test("PPTX: one section per slide in the deck's order, with its speaker notes; found and cited", async () => {
    const markdown = (await pagesOfSource(ready.pptx.id)).map((p) => p.markdown).join("\n");
    expect(markdown.indexOf("## Welcome aboard")).toBeLessThan(markdown.indexOf("## Security basics"));
    expect(markdown).toContain("- Rotate the badge PIN every 90 days");
    expect(markdown).toContain("Speaker notes: Mention the phishing drill on Thursday.");
    expect(markdown).not.toMatch(/^- ?[12]$/m); // the slide-number placeholder is no text
    const found = await context("badge PIN rotation");
    expect(found.context).toContain("Rotate the badge PIN every 90 days");
    const body = await askBrain(s, brainId, "How often is the badge PIN rotated?");
    expect(body.answer).toContain("90 days");
    expect(await citesSource(body, ready.pptx.id)).toBe(true);
  });

  test("EPUB: chapters as sections in spine order; found and cited", async () => {
    const pages = await pagesOfSource(ready.epub.id);
    const markdown = pages.map((p) => p.markdown).join("\n");
    expect(markdown.indexOf("Lamp maintenance")).toBeLessThan(markdown.indexOf("Fog signals"));
    expect(ready.epub.title).toBe("The Lighthouse Keeper's Manual");
    const found = await context("lamp lens chamois");
    expect(found.context).toContain("polished with chamois leather");
    const body = await askBrain(s, brainId, "How often does the foghorn sound?");
    expect(body.answer).toContain("twice every thirty seconds");
    expect(await citesSource(body, ready.epub.id)).toBe(true);
  });

  test("ODT: headings, paragraphs and lists; found and cited", async () => {
    const markdown = (await pagesOfSource(ready.odt.id)).map((p) => p.markdown).join("\n");
    expect(markdown).toContain("- Hotels are booked through the travel desk");
    const body = await askBrain(s, brainId, "Which class is booked for flights under six hours?");
    expect(body.answer).toContain("Economy class");
    expect(await citesSource(body, ready.odt.id)).toBe(true);
  });

  test("TSV: rows read with their headers", async () => {
    const body = await askBrain(s, brainId, "Who is the supervisor of the night shift?");
    expect(body.answer).toContain("Leon Brandt");
    expect(body.citations.map((c: any) => c.slug)).toContain((await pagesOfSource(ready.tsv.id))[0]!.slug);
  });
});

describe("detected by content, and links", () => {
  test("a link serving an XLSX is read through the same path", async () => {
    const { source } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { kind: "link", url: `http://127.0.0.1:${site.port}/exports/fleet` } }), 201);
    expect(await waitForSource(s, brainId, source.id)).toMatchObject({ status: "ready", title: "Fleet register" });
    expect((await pagesOfSource(source.id))[0]!.markdown).toContain("| VN-101 | Leiria | 182400 |");
  });

  test("an XLSX named .docx and labelled application/zip is read as the workbook it is", async () => {
    const id = await upload("not-really.docx", "application/zip", workbook);
    expect(await waitForSource(s, brainId, id)).toMatchObject({ status: "ready", title: "Regional sales 2026" });
    expect((await pagesOfSource(id)).map((p) => p.title)).toContain("Regional sales 2026 — Q3 revenue");
  });
});

describe("a large sheet", () => {
  test("is split into pages of bounded rows, each repeating the header", async () => {
    const csv = `Ticket,Owner,Hours\n${Array.from({ length: 250 }, (_, i) => `T-${i + 1},Owner ${i % 7},${i % 13}`).join("\n")}`;
    const id = await upload("tickets.csv", MEDIA.csv, new TextEncoder().encode(csv));
    expect(await waitForSource(s, brainId, id)).toMatchObject({ status: "ready" });
    const pages = await pagesOfSource(id);
    expect(pages.map((p) => p.title)).toEqual(["tickets — Rows 1–100", "tickets — Rows 101–200", "tickets — Rows 201–250"]);
    for (const page of pages) expect(page.markdown).toContain("| Ticket | Owner | Hours |\n| --- | --- | --- |");
    expect(pages[2]!.markdown).toContain("| T-250 | Owner 4 | 2 |");
  });
});
