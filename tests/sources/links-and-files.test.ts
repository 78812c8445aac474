// Link sources against a loopback site, file uploads through signed URLs, and the failures of both.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { signUpload, instanceSecret } from "../../src/modules/sources/upload-token";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, waitForSource } from "../support/sources";

let s: TestServer;
let site: ReturnType<typeof Bun.serve>;
let siteHits: string[] = [];
let brainId: string;
let siteHeld = false;
let releaseHeld = () => {};
const heldRelease = new Promise<void>((resolve) => (releaseHeld = resolve));

const article = `<!doctype html><html><head><title>Tidal Power Explained</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Tidal Power Explained</h1>
<p>Tidal power converts the energy of tides into electricity. Tidal barrages were first built in France in 1966.</p>
<p>The La Rance station produces about 240 megawatts at peak and remains one of the largest tidal plants.</p>
<p>Unlike wind, tides are predictable years in advance, which makes tidal output easy to schedule.</p>
</article><footer>Copyright</footer></body></html>`;

beforeAll(async () => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      siteHits.push(path);
      if (path === "/article") return new Response(article, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (path === "/slow") {
        await Bun.sleep(5_000);
        return new Response("late");
      }
      if (path === "/held") {
        siteHeld = true;
        await heldRelease;
        return new Response(article, { headers: { "content-type": "text/html; charset=utf-8" } });
      }
      if (path === "/redirect-out") return Response.redirect("http://127.0.0.2:9/private", 302);
      return new Response("nope", { status: 404 });
    },
  });
  s = await startTestServer({
    BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
    BRAINBOX_FETCH_TIMEOUT_MS: "300",
    BRAINBOX_JOB_RETRY_BASE_MS: "10",
    BRAINBOX_JOB_MAX_ATTEMPTS: "2",
  });
  brainId = await newBrain(s);
});
afterAll(async () => {
  await s.close();
  site.stop(true);
});

const addLink = async (url: string) =>
  (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { kind: "link", url } }), 201)).source;

describe("link sources", () => {
  test("an allow-listed page is fetched, made readable and becomes a titled page", async () => {
    const source = await addLink(`http://127.0.0.1:${site.port}/article`);
    expect(source.type).toBe("link");
    const ready = await waitForSource(s, brainId, source.id);
    expect(ready).toMatchObject({ status: "ready", title: "Tidal Power Explained" });
    const page = (await pagesOf(s, brainId)).find((p) => p.source_id === source.id)!;
    expect(page.markdown).toContain("La Rance");
    expect(page.markdown).not.toContain("Copyright");
  });

  test("waiting on the network is not counted as a read that could crash the server (no extraction mark)", async () => {
    const source = await addLink(`http://127.0.0.1:${site.port}/held`);
    while (!siteHeld) await Bun.sleep(10);
    const marks = async () =>
      (await s.ctx.db.all<{ mark: number | null }>(sql`SELECT json_extract(payload, '$.extracting') AS mark FROM jobs WHERE subject_id = ${source.id}`))[0]!.mark;
    expect(await marks()).toBeNull();
    releaseHeld();
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
    expect(await marks()).toBeNull();
  });

  test("a page that 404s fails with a readable error, without retries", async () => {
    const source = await addLink(`http://127.0.0.1:${site.port}/missing`);
    const failed = await waitForSource(s, brainId, source.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("404");
    const jobs = await s.ctx.db.all<{ attempts: number }>(sql`SELECT attempts FROM jobs WHERE subject_id = ${source.id}`);
    expect(jobs[0]!.attempts).toBe(1);
  });

  test("a page that times out is retried, then fails", async () => {
    const source = await addLink(`http://127.0.0.1:${site.port}/slow`);
    const failed = await waitForSource(s, brainId, source.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/took longer than 300 ms/);
    const jobs = await s.ctx.db.all<{ attempts: number }>(sql`SELECT attempts FROM jobs WHERE subject_id = ${source.id}`);
    expect(jobs[0]!.attempts).toBe(2);
  });

  test("a redirect to a non-allow-listed address is refused without connecting", async () => {
    const source = await addLink(`http://127.0.0.1:${site.port}/redirect-out`);
    const failed = await waitForSource(s, brainId, source.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/block|refus|not allowed|private|loopback/i);
  });
});

async function upload(filename: string, contentType: string, bytes: Uint8Array, putType = contentType, putBytes = bytes) {
  const ticket = await expectJson(
    await s.api(`/api/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename, contentType, size: bytes.byteLength } }),
    201,
  );
  const put = await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([putBytes as BlobPart]), headers: { "content-type": putType } });
  return { ticket, put };
}

describe("file uploads", () => {
  test("markdown upload lands and becomes pages", async () => {
    const text = "# Glaciers\n\nGlaciers are slow rivers of ice that carve valleys over millennia.";
    const { ticket, put } = await upload("glaciers.md", "text/markdown", new TextEncoder().encode(text));
    expect(ticket.uploadUrl).toStartWith(s.url);
    expect(ticket.key).toContain(ticket.sourceId);
    expect(put.status).toBe(200);
    const ready = await waitForSource(s, brainId, ticket.sourceId);
    expect(ready).toMatchObject({ status: "ready", type: "file", filename: "glaciers.md" });
    expect((await pagesOf(s, brainId)).some((p) => p.markdown.includes("slow rivers of ice"))).toBe(true);
  });

  test("a signed URL works once", async () => {
    const bytes = new TextEncoder().encode("plain text about otters");
    const { ticket, put } = await upload("otters.txt", "text/plain", bytes);
    expect(put.status).toBe(200);
    const again = await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": "text/plain" } });
    expect((await expectJson(again, 403)).error.code).toBe("forbidden");
  });

  test("wrong content type → 415, wrong size → 422 or 413, nothing processed", async () => {
    const bytes = new TextEncoder().encode("hello world");
    const wrongType = await upload("a.txt", "text/plain", bytes, "application/pdf");
    expect((await expectJson(wrongType.put, 415)).error.code).toBe("unsupported_media_type");
    const shorter = await upload("b.txt", "text/plain", bytes, "text/plain", bytes.slice(0, 5));
    expect((await expectJson(shorter.put, 422)).error.field).toBe("size");
    const longer = await upload("c.txt", "text/plain", bytes, "text/plain", new TextEncoder().encode("hello world, and more"));
    expect([413, 422]).toContain(longer.put.status);
    const src = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${wrongType.ticket.sourceId}`), 200);
    expect(src.source.status).toBe("pending");
  });

  test("an expired or tampered URL is refused", async () => {
    const secret = await instanceSecret(s.ctx.db);
    const expired = signUpload(secret, { jti: "x1", sourceId: "src_x", brainId, key: "k", contentType: "text/plain", size: 2, exp: Date.now() - 1000 });
    const res = await fetch(`${s.url}/api/uploads/${expired}`, { method: "PUT", body: "hi", headers: { "content-type": "text/plain" } });
    expect((await expectJson(res, 403)).error.message).toMatch(/expired/);
    const forged = signUpload("not-the-secret", { jti: "x2", sourceId: "src_x", brainId, key: "k", contentType: "text/plain", size: 2, exp: Date.now() + 60_000 });
    const res2 = await fetch(`${s.url}/api/uploads/${forged}`, { method: "PUT", body: "hi", headers: { "content-type": "text/plain" } });
    expect((await expectJson(res2, 403)).error.message).toMatch(/signature/);
    const res3 = await fetch(`${s.url}/api/uploads/garbage`, { method: "PUT", body: "hi", headers: { "content-type": "text/plain" } });
    expect(res3.status).toBe(403);
  });

  test("a PDF of garbage bytes and an unsupported type fail the source, not the process", async () => {
    const garbage = await upload("broken.pdf", "application/pdf", new TextEncoder().encode("%PDF-1.4 this is not really a pdf"));
    expect(garbage.put.status).toBe(200);
    const png = await upload("pic.png", "image/png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]));
    const a = await waitForSource(s, brainId, garbage.ticket.sourceId);
    const b = await waitForSource(s, brainId, png.ticket.sourceId);
    expect(a.status).toBe("failed");
    expect(a.error).toBeString();
    expect(b.status).toBe("failed");
    expect(b.error).toMatch(/support/i);
    expect((await s.api("/api/health", { key: null })).status).toBe(200);
  });

  test("upload-url validates its body and the size limit", async () => {
    const url = `/api/brains/${brainId}/sources/upload-url`;
    const big = await s.api(url, { method: "POST", json: { filename: "x.pdf", contentType: "application/pdf", size: 10 ** 12 } });
    expect((await expectJson(big, 413)).error.code).toBe("payload_too_large");
    for (const [json, field] of [
      [{ contentType: "text/plain", size: 1 }, "filename"],
      [{ filename: "a", contentType: "nonsense", size: 1 }, "contentType"],
      [{ filename: "a", contentType: "text/plain", size: 0 }, "size"],
      [{ filename: "a", contentType: "text/plain", size: 1.5 }, "size"],
    ] as const) {
      const res = await s.api(url, { method: "POST", json });
      expect((await expectJson(res, 422)).error.field).toBe(field);
    }
  });
});
