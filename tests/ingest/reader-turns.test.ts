// The reader reads one document at a time; a document's `beforeRead` (the job's durable "a read started"
// mark) runs when its turn comes, so a server killed while documents wait blames only the one being read.
import { afterAll, expect, test } from "bun:test";
import { createDocumentReader, DEFAULT_EXTRACTION_BUDGET } from "../../src/ingest";
import { createLogger } from "../../src/lib/log";
import { longPdf } from "../support/bombs";

const reader = createDocumentReader(DEFAULT_EXTRACTION_BUDGET, createLogger("error"));
afterAll(() => reader.close());

test("a document's beforeRead runs when its turn comes, after the document before it is read", async () => {
  const events: string[] = [];
  const turn = (name: string) => async () => void events.push(`${name} starts`);
  const done = (name: string) => (doc: { markdown: string }) => (events.push(`${name} read`), doc);
  const long = reader.extract({ bytes: longPdf(300), contentType: "application/pdf", filename: "manual.pdf" }, turn("manual")).then(done("manual"));
  const short = reader.extract({ bytes: new TextEncoder().encode("# Harbour\n\nThe harbour opens at dawn."), contentType: "text/markdown", filename: "note.md" }, turn("note")).then(done("note"));
  const [manual, note] = await Promise.all([long, short]);
  expect(manual.markdown).toContain("Chapter 300 of the long manual.");
  expect(note.markdown).toContain("The harbour opens at dawn.");
  expect(events).toEqual(["manual starts", "manual read", "note starts", "note read"]);
});

test("a beforeRead that fails leaves the document unread and the reader serving the next one", async () => {
  const refused = reader.extract({ bytes: new TextEncoder().encode("# Gate\n\nClosed."), contentType: "text/markdown", filename: "gate.md" }, async () => {
    throw new Error("the mark could not be written");
  });
  await expect(refused).rejects.toThrow("the mark could not be written");
  const next = await reader.extract({ bytes: new TextEncoder().encode("# Pier\n\nOpen at noon."), contentType: "text/markdown", filename: "pier.md" });
  expect(next.markdown).toContain("Open at noon.");
});
