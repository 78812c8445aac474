// A zip container whose own directory says it inflates past the extraction limits is refused at the PUT of
// its upload: 422 `document_too_large` with the reason, the source failed with the same reason (nothing
// left pending, no job to run), and the URL used up. A bomb that understates its size is let through and
// stopped while inflating (format-bad-inputs.test.ts, tests/e2e/hardening/bombs.test.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { docxBomb, docxWithManyEntries } from "../support/bombs";
import { MEDIA, epubBomb, pptxBomb, xlsxBomb } from "../support/office-files";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Refusals");
});
afterAll(() => s.close());

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

async function put(filename: string, contentType: string, bytes: Uint8Array) {
  const ticket = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename, contentType, size: bytes.byteLength } }), 201);
  const send = () => fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": contentType } });
  return { ticket, res: await send(), again: send };
}

for (const [name, type, bomb, reason] of [
  ["bomb.docx", DOCX, () => docxBomb(300), /^The file cannot be read: the part word\/document\.xml expands to 30\d(\.\d)? MB, over the limit of 100 MB a part/],
  ["bomb.xlsx", MEDIA.xlsx, () => xlsxBomb(300), /the part xl\/worksheets\/sheet1\.xml expands to 30\d(\.\d)? MB/],
  ["bomb.pptx", MEDIA.pptx, () => pptxBomb(300), /the part ppt\/slides\/slide1\.xml expands to 30\d(\.\d)? MB/],
  ["bomb.epub", MEDIA.epub, () => epubBomb(300), /the part OEBPS\/text\/part1\.xhtml expands to 30\d(\.\d)? MB/],
] as const) {
  test(`${name} that says it inflates to 300 MiB: 422 at upload, the source failed with the reason`, async () => {
    const { ticket, res, again } = await put(name, type, bomb());
    const body = await expectJson(res, 422);
    expect(body.error).toMatchObject({ code: "document_too_large", sourceId: ticket.sourceId, message: expect.stringMatching(reason) });
    const { source } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${ticket.sourceId}`), 200);
    expect(source.status).toBe("failed");
    expect(source.error).toMatch(/^document_too_large: the part .* expands to/);
    const jobs = await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE subject_id = ? AND kind = 'ingest-source'", args: [ticket.sourceId] });
    expect(Number(jobs.rows[0]!.n)).toBe(0);
    expect((await again()).status).toBe(403);
  });
}

test("a zip of more entries than the limit is refused at upload too", async () => {
  const limited = await startTestServer({ BRAINBOX_EXTRACT_MAX_ENTRIES: "100" });
  try {
    const brain = await newBrain(limited, "Entries");
    const bytes = docxWithManyEntries(500);
    const ticket = await expectJson(await limited.api(`/api/v1/brains/${brain}/sources/upload-url`, { method: "POST", json: { filename: "many.docx", contentType: DOCX, size: bytes.byteLength } }), 201);
    const res = await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": DOCX } });
    expect((await expectJson(res, 422)).error).toMatchObject({ code: "document_too_large", message: expect.stringContaining("more than 100 parts") });
  } finally {
    await limited.close();
  }
});

test("a small honest DOCX and a file that is no zip pass the check: stored and read as before", async () => {
  const { res } = await put("notes.txt", "text/plain", new TextEncoder().encode("PK but not a zip: plain notes about the refusal check."));
  expect(res.status).toBe(200);
  const { res: docx } = await put("many.docx", DOCX, docxWithManyEntries(20));
  expect(docx.status).toBe(200);
});
