// A book club's notes beside the novel's character list. Asked over real HTTP; the pages are written by the
// test and answers are checked for what they should quote.
// Its questions asked of the pages are a table: tests/answer/cases/book-club.ts.
import { expect, test } from "bun:test";
import { describesPerson } from "../../src/modules/answer/question";

test("only a name written with its capital is a person asked to be described", () => {
  expect(describesPerson("Who is Ines Varga?")).toBe(true);
  expect(describesPerson("Who was Thomas Wray?")).toBe(true);
  expect(describesPerson("Who is the narrator?")).toBe(false);
  expect(describesPerson("who is ines varga")).toBe(false);
  expect(describesPerson("What is Brightpay?")).toBe(false);
});
