// Answer cases as tables (tests/answer/cases/): each table's pages in a brain of their own, all on one server
// started in this process; each case asks its question over the v1 surface and checks what the answer must
// and must not hold.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server";
import { addTextsReady, askBrain, newBrain } from "../support/sources";
import { ONE_PAGE, SHAPES, TWO_PART } from "./cases/shapes";
import type { AnswerCase, AnswerTable } from "./cases/table";

export const TABLES: AnswerTable[] = [SHAPES, ONE_PAGE, TWO_PART];

let s: TestServer;
const brains = new Map<string, string>();

beforeAll(async () => {
  s = await startTestServer();
  for (const table of TABLES) {
    const id = await newBrain(s, table.brain);
    await addTextsReady(s, id, table.pages);
    brains.set(table.brain, id);
  }
});
afterAll(() => s.close());

function check(c: AnswerCase, body: { answer: string; thin: boolean; citations: { slug: string }[] }) {
  if (c.thin !== undefined) expect(body.thin).toBe(c.thin);
  if (c.startsWith !== undefined) expect(body.answer.slice(0, c.startsWith.length)).toBe(c.startsWith);
  for (const want of c.contains ?? []) typeof want === "string" ? expect(body.answer).toContain(want) : expect(body.answer).toMatch(want);
  for (const unwanted of c.excludes ?? []) typeof unwanted === "string" ? expect(body.answer).not.toContain(unwanted) : expect(body.answer).not.toMatch(unwanted);
  if (c.cites) expect(body.citations.map((x) => x.slug)).toEqual(expect.arrayContaining(c.cites));
}

for (const table of TABLES) {
  describe(table.brain, () => {
    for (const c of table.cases) test(c.name ?? c.question, async () => check(c, await askBrain(s, brains.get(table.brain)!, c.question)));
  });
}
