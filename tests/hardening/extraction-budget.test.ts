// Issue 54: a document that takes longer to read than one document may is stopped on its thread and fails
// for good with its reason, while the server keeps answering; the next document is read by a fresh thread.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { longPdf } from "../support/bombs";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, uploadFile, waitForSource } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_EXTRACT_TIME_MS: "100" });
});
afterAll(() => s.close());

const upload = (brainId: string, filename: string, contentType: string, bytes: Uint8Array) => uploadFile(s, brainId, filename, contentType, bytes);

test("a document past its time budget fails for good with the reason; health answers meanwhile; the next document is read", async () => {
  const brainId = await newBrain(s);
  const slow = await upload(brainId, "manual.pdf", "application/pdf", longPdf(2000));
  let polls = 0;
  let source: any;
  for (;;) {
    expect((await s.api("/api/health", { key: null })).status).toBe(200);
    polls++;
    source = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${slow}`), 200)).source;
    if (source.status === "ready" || source.status === "failed") break;
    await Bun.sleep(50);
  }
  expect(source).toMatchObject({ status: "failed", error: "reading the document took longer than 0.1 s" });
  expect(polls).toBeGreaterThan(0);
  const [job] = await s.ctx.database.client.execute({ sql: "SELECT status, attempts FROM jobs WHERE subject_id = ?", args: [slow] }).then((r) => r.rows);
  expect({ status: job!.status, attempts: Number(job!.attempts) }).toEqual({ status: "failed", attempts: 1 });
  // The thread that was stopped is replaced: a small document is read as usual.
  const small = await upload(brainId, "note.md", "text/markdown", new TextEncoder().encode("# Harbour\n\nThe harbour opens at dawn."));
  expect(await waitForSource(s, brainId, small)).toMatchObject({ status: "ready" });
});
