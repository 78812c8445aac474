// A concept named in the plural gets the slug of its singular: "White Flashes" is white-flash, not white-flashe.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

test("concept slugs of -es plurals over HTTP: white flashes, local caches", async () => {
  const brainId = await newBrain(s);
  await addTextsReady(s, brainId, {
    "Lighthouse signals": "The white flashes of the lighthouse repeat every ten seconds. Local caches of spare lamps sit in the tower.",
    "Night sailing": "Sailors count the white flashes to tell the lighthouses apart. The local caches of fuel are checked each spring.",
  });
  const { pages } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=concept`), 200);
  const slugs = pages.map((p: { slug: string }) => p.slug);
  expect(slugs).toContain("white-flash");
  expect(slugs).not.toContain("white-flashe");
}, 30_000);
