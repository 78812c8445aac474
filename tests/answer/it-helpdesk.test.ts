// Query terms of an IT help centre's questions; its answers are a table: tests/answer/cases/it-helpdesk.ts.
import { expect, test } from "bun:test";
import { queryTerms } from "../../src/retrieval";

test("'IT' in capitals is information technology, not the word 'it'", () => {
  expect(queryTerms("Where is the IT desk? Is it open?")).toEqual(["it", "desk", "open"]);
  expect(queryTerms("Is it open?")).toEqual(["open"]);
  expect(queryTerms("Who is our US distributor? Tell us")).toEqual(["us", "distributor", "tell"]);
});
