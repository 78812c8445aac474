// Uploads to S3-compatible storage: the client PUTs to a presigned URL, processing starts once the object lands.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startS3Standin, type S3Standin } from "../support/s3-standin";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, waitForSource } from "../support/sources";

let s3: S3Standin;
let s: TestServer;
beforeAll(async () => {
  s3 = startS3Standin("brainbox");
  s = await startTestServer({
    BRAINBOX_S3_BUCKET: "brainbox",
    BRAINBOX_S3_ENDPOINT: s3.url,
    BRAINBOX_S3_ACCESS_KEY_ID: "test-access",
    BRAINBOX_S3_SECRET_ACCESS_KEY: "test-secret",
  });
});
afterAll(async () => {
  await s.close();
  s3.stop();
});

test("upload-url gives a presigned bucket URL; the source is processed once the object appears", async () => {
  const brainId = await newBrain(s);
  const text = "# Lichens\n\nLichens are partnerships of fungi and algae.";
  const ticket = await expectJson(
    await s.api(`/api/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename: "lichens.md", contentType: "text/markdown", size: text.length } }),
    201,
  );
  expect(ticket.uploadUrl).toStartWith(`${s3.url}/brainbox/`);
  expect(ticket.uploadUrl).toContain("X-Amz-Signature=");
  // Nothing lands yet: the source waits without failing.
  await Bun.sleep(300);
  expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${ticket.sourceId}`), 200)).source.status).toBe("pending");
  const put = await fetch(ticket.uploadUrl, { method: "PUT", body: text, headers: { "content-type": "text/markdown" } });
  expect(put.status).toBe(200);
  expect(s3.objects.get(ticket.key)?.type).toBe("text/markdown");
  const ready = await waitForSource(s, brainId, ticket.sourceId, ["ready", "failed"], 15_000);
  expect(ready.status).toBe("ready");
  expect((await pagesOf(s, brainId))[0]!.markdown).toContain("fungi and algae");
  // Deleting the source deletes the object.
  expect((await s.api(`/api/v1/brains/${brainId}/sources/${ticket.sourceId}`, { method: "DELETE" })).status).toBe(204);
  expect(s3.objects.has(ticket.key)).toBe(false);
});
