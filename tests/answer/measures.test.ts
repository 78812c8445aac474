// "How long / how old / how far / how tall / how often" ask for a measure of that kind, not any number: the
// sentence giving the duration answers "how long", not the one counting runners. Pages are written by the
// test; answers are checked for the sentence, over real HTTP.
// Its questions asked of the pages are a table: tests/answer/cases/measures.ts.
import { expect, test } from "bun:test";
import { measureAsked } from "../../src/modules/answer/measures";

test("the measures asked", () => {
  const long = measureAsked("How long does failover take?")!;
  expect(long.test("Failover normally completes in under two minutes.")).toBe(true);
  expect(long.test("The war lasted from 1914 to 1918.")).toBe(true);
  expect(long.test("Quiet hours are from 22:00 to 7:00.")).toBe(true);
  expect(long.test("Refunds reach you within 5 to 7 business days.")).toBe(true);
  expect(long.test("It features eight single men and women.")).toBe(false);
  expect(measureAsked("How often are backups taken?")!.test("Backups are taken twice a day.")).toBe(true);
  expect(measureAsked("How old is the bridge?")!.test("The bridge was built in 1889.")).toBe(true);
  const many = measureAsked("How many plans are there?")!;
  expect(many.test("There are three plans.")).toBe(true);
  expect(many.test("Plans were introduced in 2015.")).toBe(false);
  expect(many.test("The company has 2000 employees.")).toBe(true);
  expect(many.test("In 2015 this changed.")).toBe(false);
  expect(measureAsked("How much does a filling cost?")!.test("White fillings start at £120.")).toBe(true);
  expect(measureAsked("How many years did the siege last?")!.test("The siege lasted from 1648 to 1652.")).toBe(true);
  expect(measureAsked("How big is the lake?")).toBeNull();
});


test("'in' is an inch only right after its number: '5,210 participants in total' is no length", () => {
  const long = measureAsked("How long should a nap be?")!;
  expect(long.test("Reviewed 37 studies with 5,210 participants in total.")).toBe(false);
  expect(long.test("It was 3 in the morning.")).toBe(false);
  expect(long.test("Naps of 10 to 20 minutes improved alertness.")).toBe(true);
  expect(long.test("The cable is 12 in.")).toBe(true);
  expect(measureAsked("How tall is he?")!.test("He is 6 ft 2 in tall.")).toBe(true);
});
