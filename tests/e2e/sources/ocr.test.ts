// Scans read with OCR over real HTTP: a scanned handbook (300 dpi, turned a little, speckled) uploaded as a
// PDF becomes ready, its pages say they were read by OCR, and a question is answered and cited from them;
// while a long scan is being read, the server answers other requests. In the e2e tier: the models read
// several full pages on a shared machine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { askBrain, newBrain, pagesOf, uploadFile, waitForSource } from "../../support/sources";
import { renderScan, scannedPdf } from "../../support/scans";

let s: TestServer;
let brainId: string;

beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Scanned handbook");
});
afterAll(() => s.close());

const upload = (filename: string, bytes: Uint8Array) => uploadFile(s, brainId, filename, "application/pdf", bytes);

const HANDBOOK = [
  "Visitor parking",
  "Visitors park on the upper deck of the north garage. The lower deck is reserved for delivery vans and the night shift.",
  "A visitor badge is collected at the front desk and returned before leaving the building.",
];

describe("a scanned PDF over HTTP", () => {
  test("becomes ready; its page is marked as OCR text; a question is answered and cited from it", async () => {
    const page = await renderScan(HANDBOOK, { dpi: 300, rotate: 0.8, noise: 10 });
    const sourceId = await upload("visitor-handbook.pdf", scannedPdf([page], [0], 300));
    const source = await waitForSource(s, brainId, sourceId);
    expect(source).toMatchObject({ status: "ready", error: null });
    const pages = (await pagesOf(s, brainId)).filter((p) => p.source_id === sourceId);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]!.markdown).toContain("> _Text read by OCR (optical character recognition) from page 1 of the scan: it may hold recognition errors._");
    expect(pages[0]!.markdown).toContain("Visitors park on the upper deck of the north garage.");
    const answer = await askBrain(s, brainId, "Where do visitors park?");
    expect(answer.thin).toBe(false);
    expect(answer.answer).toMatch(/upper deck of the north garage/);
    expect(answer.citations.map((c: { slug: string }) => c.slug)).toContain(pages[0]!.slug);
  });

  test("while a scan of several pages is read, the server answers other requests", async () => {
    const pages = await Promise.all(
      [1, 2, 3, 4].map((n) => renderScan([`Floor ${n}`, `The printer on floor ${n} is serviced every ${n + 1} weeks by the facilities team.`], { dpi: 200, noise: 8, seed: n })),
    );
    const sourceId = await upload("floors.pdf", scannedPdf(pages, [0, 1, 2, 3], 200));
    await waitForSource(s, brainId, sourceId, ["processing"]);
    // Answered while the document thread reads the scan: the source is still processing after the answers.
    const health = await s.api("/api/health", { key: null });
    expect(health.status).toBe(200);
    const list = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200);
    expect(list.sources.length).toBeGreaterThan(0);
    const during = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${sourceId}`), 200);
    expect(during.source.status).toBe("processing");
    const done = await waitForSource(s, brainId, sourceId);
    expect(done.status).toBe("ready");
    const text = (await pagesOf(s, brainId)).filter((p) => p.source_id === sourceId).map((p) => p.markdown).join("\n");
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`page ${n} of the scan`);
    expect(text).toContain("The printer on floor 3 is serviced every 4 weeks");
  });
});
