// Seed rule 1: any body may carry externalId; when a source with that externalId exists in the brain, the
// existing source comes back with created:false and HTTP 200, whatever the body's kind, on both surfaces.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  // Link sources point at 127.0.0.1:9 (allowed, nothing listens): no test traffic leaves loopback.
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1:9" });
  brainId = await newBrain(s, "Idempotent");
});
afterAll(() => s.close());

const v1 = (json: unknown, brain = brainId) => s.api(`/api/v1/brains/${brain}/sources`, { method: "POST", json });
const plain = (json: unknown, brain = brainId) => s.api(`/api/brains/${brain}/sources`, { method: "POST", json });

describe("externalId, whatever the body", () => {
  test("a text source's externalId sent with a link, a note or another text kind on either surface: 200, the same source, unchanged", async () => {
    const first = await expectJson(await v1({ title: "Tides", content: "Tides follow the Moon.", externalId: "doc-1" }), 201);
    expect(first).toMatchObject({ created: true, source: { type: "text", externalId: "doc-1" } });
    const repeats = [
      () => v1({ kind: "link", url: "http://127.0.0.1:9/tides", externalId: "doc-1" }),
      () => v1({ title: "Tides note", content: "A note.", mode: "note", externalId: "doc-1" }),
      () => plain({ type: "link", url: "http://127.0.0.1:9/tides", externalId: "doc-1" }),
      () => plain({ type: "note", title: "Tides note", body: "A note.", externalId: "doc-1" }),
    ];
    for (const send of repeats) {
      const res = await send();
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      const source = body.source ?? body;
      expect({ created: body.created, id: source.id, type: source.type, title: source.title }).toEqual({
        created: false,
        id: first.source.id,
        type: "text",
        title: "Tides",
      });
    }
    const { sources } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200);
    expect(sources.filter((x: any) => x.externalId === "doc-1")).toHaveLength(1);
    const stored = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${first.source.id}`), 200);
    expect(stored.source).toMatchObject({ type: "text", title: "Tides", url: null });
  });

  test("a link's externalId sent with a text body: 200, the link", async () => {
    const link = await expectJson(await v1({ kind: "link", url: "http://127.0.0.1:9/basalt", externalId: "link-1" }), 201);
    const again = await expectJson(await v1({ title: "Basalt", content: "Basalt is volcanic.", externalId: "link-1" }), 200);
    expect(again).toEqual({ created: false, source: { ...link.source, status: again.source.status } });
    expect(again.source.type).toBe("link");
  });

  test("the same kind with new content still updates the source (documented), and a bad body is still 422", async () => {
    const first = await expectJson(await v1({ title: "Granite", content: "Granite is coarse.", externalId: "doc-2" }), 201);
    const updated = await expectJson(await v1({ title: "Granite, revised", content: "Granite is coarse-grained.", externalId: "doc-2" }), 200);
    expect(updated).toMatchObject({ created: false, source: { id: first.source.id, title: "Granite, revised" } });
    const bad = await expectJson(await v1({ kind: "link", url: "not a url", externalId: "doc-2" }), 422);
    expect(bad.error).toMatchObject({ code: "invalid_request", field: "url" });
  });

  test("an externalId is scoped to its brain: another brain makes its own source", async () => {
    const other = await newBrain(s, "Elsewhere");
    const made = await expectJson(await v1({ kind: "link", url: "http://127.0.0.1:9/x", externalId: "doc-1" }, other), 201);
    expect(made.created).toBe(true);
  });
});
