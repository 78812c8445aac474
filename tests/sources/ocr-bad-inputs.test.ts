// Hostile and broken scans over real HTTP: each fails its own source with a reason in plain words, quickly
// (no model runs for any of them), while a text source added beside them is read as usual and the server
// keeps answering. The scans that are read (and a question answered from one) are in tests/e2e/sources/ocr.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, uploadFile, waitForSource } from "../support/sources";
import { blankPng, grayToPng, scannedPdf, type Gray } from "../support/scans";

let s: TestServer;
let brainId: string;

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_JOB_RETRY_BASE_MS: "10", BRAINBOX_JOB_MAX_ATTEMPTS: "2" });
  brainId = await newBrain(s);
});
afterAll(() => s.close());

const upload = (filename: string, contentType: string, bytes: Uint8Array) => uploadFile(s, brainId, filename, contentType, bytes);

const white = (width: number, height: number): Gray => ({ width, height, data: new Uint8Array(width * height).fill(255) });

describe("scans that cannot be read", () => {
  test("each fails its own source with its reason; a text source beside them is ready; the server answers", async () => {
    const png = grayToPng(white(200, 100));
    const cases: Array<[name: string, type: string, bytes: Uint8Array, error: RegExp]> = [
      ["huge.png", "image/png", blankPng(30_000, 30_000), /^the image is 30,000 x 30,000 pixels \(900 megapixels\); at most 40 megapixels are read$/],
      ["blank-5000.pdf", "application/pdf", scannedPdf([white(850, 1100)], Array(5000).fill(0), 100), /^the PDF has more than 200 pages without a text layer \(of 5,000 pages\); at most 200/],
      ["cut.png", "image/png", png.slice(0, 60), /^could not read the IMAGE document: /],
      ["pretend.jpg", "image/jpeg", new TextEncoder().encode("this is not a JPEG, only labelled as one"), /^could not read the image: its bytes are not a supported image \(PNG, JPEG, GIF, TIFF or WebP\)/],
      ["white.pdf", "application/pdf", scannedPdf([white(1275, 1650)], [0, 0, 0], 150), /^the PDF document contains no text \(no text layer, and OCR found no text in its pages' images\)$/],
      ["broken-scan.pdf", "application/pdf", brokenScan(), /^the PDF document contains no text \(no text layer, and OCR found no text/],
    ];
    const ids = [];
    for (const [name, type, bytes] of cases) ids.push(await upload(name, type, bytes));
    const text = await addText(s, brainId, "Canteen hours", "The canteen opens at half past seven and closes after lunch.");
    for (const [i, [name, , , error]] of cases.entries()) {
      const source = await waitForSource(s, brainId, ids[i]!);
      expect(`${name}: ${source.status}`).toBe(`${name}: failed`);
      expect(source.error).toMatch(error);
    }
    expect((await waitForSource(s, brainId, text.source.id)).status).toBe("ready");
    expect((await s.api("/api/health", { key: null })).status).toBe(200);
  });
});

/** A scanned page whose image stream is not the deflate data its filter says. */
function brokenScan(): Uint8Array {
  const pdf = new TextDecoder("latin1").decode(scannedPdf([white(400, 300)], [0], 100));
  const start = pdf.indexOf("stream\n", pdf.indexOf("/Subtype /Image")) + "stream\n".length;
  const broken = pdf.slice(0, start) + "x".repeat(8) + pdf.slice(start + 8);
  return Uint8Array.from(broken, (c) => c.charCodeAt(0));
}
