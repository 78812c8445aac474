// A syllabus's words: course codes are no years, '-ssion' nouns stem as their verbs. Its answers are a table:
// tests/answer/cases/syllabus.ts.
import { expect, test } from "bun:test";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { stem } from "../../src/modules/answer/sentences";

test("a course code's number is no year", () => {
  for (const code of ["CS 241", "Gates 314", "a Boeing 747"]) expect(holdsAnswerType(code, "time", new Set())).toBe(false);
  for (const year of ["Rome was sacked in 410.", "It was built in 1848.", "In 410 the city fell."]) expect(holdsAnswerType(year, "time", new Set())).toBe(true);
});

test("'submit' is what a submission is, as 'discuss' a discussion: '-ssion' nouns stem as their verbs", () => {
  for (const [noun, verb] of [["submission", "submit"], ["permission", "permit"], ["discussion", "discuss"], ["decision", "decide"]] as const)
    expect(stem(noun)).toBe(stem(verb));
  expect(stem("commission")).not.toBe(stem("commit"));
});
