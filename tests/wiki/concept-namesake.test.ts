// A source about a concept is that concept's page, whichever came first: a source titled like an existing
// (unedited) concept page takes its slug and the concept page goes, so links to the concept lead to the
// source; an edited concept page stays and the source takes the next slug; deleting the source gives the
// concept its own page back. Over real HTTP, with the job loop.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { waitFor } from "../support/wait";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const page = async (brainId: string, slug: string) => (await s.api(`/api/v1/brains/${brainId}/pages/${slug}`)).json() as Promise<any>;
const status = async (brainId: string, slug: string) => (await s.api(`/api/v1/brains/${brainId}/pages/${slug}`)).status;

async function ready(brainId: string, title: string, content: string) {
  const { source } = await addText(s, brainId, title, content);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  return source.id;
}


const WRECK = "The keepers rescued eleven of the crew. Captain Ewan Moray thanked head keeper Isla Brodie in a letter to the Northern Lighthouse Board.";
const LIGHT = "Isla Brodie served as head keeper from 1885. The Northern Lighthouse Board automated the light in 1988.";
const BOARD = "The Northern Lighthouse Board runs the lighthouses of Scotland. It was founded in 1786. Its ship, the Pharos, supplies remote stations.";

test("a source titled like a concept page takes its slug; deleting the source brings the concept page back", async () => {
  const brainId = await newBrain(s, "Lights");
  await ready(brainId, "Oriel wreck", WRECK);
  await ready(brainId, "Skerry lighthouse", LIGHT);
  await waitFor(async () => (await page(brainId, "northern-lighthouse-board")).page?.kind === "concept");

  const boardId = await ready(brainId, "Northern Lighthouse Board", BOARD);
  const board = (await page(brainId, "northern-lighthouse-board")).page;
  expect(board).toMatchObject({ kind: "source", sourceId: boardId, title: "Northern Lighthouse Board" });
  expect(await status(brainId, "northern-lighthouse-board-2")).toBe(404);
  // The other sources' links to the concept now lead to the source's page.
  expect((await page(brainId, "oriel-wreck")).page.markdown).toContain("[[northern-lighthouse-board|");
  expect(board.backlinks).toEqual(expect.arrayContaining(["oriel-wreck", "skerry-lighthouse"]));
  // It does not link to itself, and the graph has one node of that slug.
  expect(board.markdown).not.toContain("[[northern-lighthouse-board");
  const graph = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?limit=100`), 200);
  expect(graph.nodes.filter((n: any) => n.slug === "northern-lighthouse-board")).toEqual([expect.objectContaining({ kind: "source" })]);

  expect((await s.api(`/api/v1/brains/${brainId}/sources/${boardId}`, { method: "DELETE" })).status).toBe(204);
  await waitFor(async () => (await page(brainId, "northern-lighthouse-board")).page?.kind === "concept");
  const concept = (await page(brainId, "northern-lighthouse-board")).page;
  expect(concept.markdown).toContain("[[oriel-wreck");
  expect(concept.markdown).toContain("[[skerry-lighthouse");
});

test("an edited concept page stays: the source takes the next slug", async () => {
  const brainId = await newBrain(s, "Edited lights");
  await ready(brainId, "Oriel wreck", WRECK);
  await ready(brainId, "Skerry lighthouse", LIGHT);
  await waitFor(async () => (await page(brainId, "isla-brodie")).page?.kind === "concept");
  const before = (await page(brainId, "isla-brodie")).page;
  await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/isla-brodie`, { method: "PUT", json: { markdown: `${before.markdown}\n\nOwner's note.` } }), 200);

  const sourceId = await ready(brainId, "Isla Brodie", "Isla Brodie was head keeper of the Skerry light for seventeen years.");
  expect((await page(brainId, "isla-brodie")).page).toMatchObject({ kind: "concept", edited: true });
  expect((await page(brainId, "isla-brodie-2")).page).toMatchObject({ kind: "source", sourceId });
});
