// Reprocessing a source keeps the slugs of pages whose titles did not change, so links to them keep working
// even when today's rules would give another slug (a freed base slug, or a slug from before a rule change).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, pagesOf, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Reprocess slugs");
});
afterAll(() => s.close());

const ready = async (title: string, content: string, extra: Record<string, unknown> = {}) => {
  const { source } = await addText(s, brainId, title, content, extra);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  return source.id;
};
const reprocess = async (sourceId: string) => {
  await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${sourceId}/reprocess`, { method: "POST" }), 202);
  expect((await waitForSource(s, brainId, sourceId)).status).toBe("ready");
};
const slugsOf = async (sourceId: string) => (await pagesOf(s, brainId)).filter((p) => p.source_id === sourceId).map((p) => p.slug);

test("a page keeps its numbered slug after the page that held the base slug is gone, and links to it still resolve", async () => {
  const first = await ready("Harbour", "The harbour was dredged in 1890 to take larger ships.");
  const second = await ready("Harbour", "A second account: the harbour wall was rebuilt in stone.");
  expect(await slugsOf(second)).toEqual(["harbour-2"]);
  const note = await ready("Reading list", "See [[harbour-2]] for the wall.", { mode: "note" });
  expect((await s.api(`/api/v1/brains/${brainId}/sources/${first}`, { method: "DELETE" })).status).toBe(204);
  expect((await s.api(`/api/v1/brains/${brainId}/pages/harbour`)).status).toBe(404);

  await reprocess(second);
  expect(await slugsOf(second)).toEqual(["harbour-2"]); // not `harbour`, free again
  const page = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/harbour-2`), 200)).page;
  expect(page.backlinks).toEqual((await slugsOf(note)));
});

test("a slug from before a rule change survives reprocessing while the title stays", async () => {
  const source = await ready("Пётр Чайковский", "Пётр Чайковский написал балет «Лебединое озеро» в 1876 году.");
  expect(await slugsOf(source)).toEqual(["пётр-чайковский"]);
  // The slug this page had before non-Latin titles kept their letters.
  await s.ctx.database.client.execute({ sql: "UPDATE pages SET slug = 'page-7' WHERE source_id = ?", args: [source] });
  await reprocess(source);
  expect(await slugsOf(source)).toEqual(["page-7"]);
  expect((await s.api(`/api/v1/brains/${brainId}/pages/page-7`)).status).toBe(200);
});

test("sections of one source that share a title keep their slugs, in order", async () => {
  const long = (topic: string) => Array.from({ length: 40 }, (_, i) => `The ${topic} record ${i} notes a fact about tides and keepers.`).join(" ");
  const markdown = `# Keepers\n\n## Notes\n\n${long("first")}\n\n## Notes\n\n${long("second")}\n\n## Log\n\n${long("third")}`;
  const source = await ready("Keepers", markdown);
  const before = await slugsOf(source);
  expect(before.length).toBeGreaterThan(2);
  expect(new Set(before).size).toBe(before.length);
  await reprocess(source);
  expect(await slugsOf(source)).toEqual(before);
});
