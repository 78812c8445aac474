// "How long / how old / how far / how tall / how often" ask for a measure of that kind, not any number: the
// sentence giving the duration answers "how long", not the one counting runners. Pages are written by the
// test; answers are checked for the sentence, over real HTTP.
import { expect, test } from "bun:test";
import { measureAsked } from "../../src/modules/answer/measures";
import { brainOf } from "../support/sources";

const ask = brainOf("Races", {
  "Harbour Run": "The Harbour Run is a race for 250 runners along the old quay. The Harbour Run takes about three hours for most runners. It has been held every spring since 1987.",
  Lighthouse: "The Corrowick lighthouse has 112 steps and two keepers. The Corrowick lighthouse is 41 metres tall.",
  Refunds: "You can return most items within 30 days of delivery for a full refund. Items that cannot be returned: gift cards. Refunds go back to the original payment method within 5 to 7 business days after we receive the item.",
  Roastery: "The Water Street roastery roasts about 900 tonnes of coffee a year.",
  "Tom Harlow": "Tom Harlow co-founded Northwind Coffee and ran its roastery until 2015.",
});

test("'how long' is answered by a duration, 'how tall' by a height, 'how many' and 'how much' by a count or an amount", async () => {
  const long = await ask("How long is the Harbour Run?");
  expect(long.answer).toContain("takes about three hours");
  expect(long.answer).not.toContain("250 runners");
  // A word between the number and its unit: "5 to 7 business days" is a duration too.
  expect((await ask("How long does a refund take?")).answer).toContain("within 5 to 7 business days");
  const tall = await ask("How tall is the Corrowick lighthouse?");
  expect(tall.answer).toContain("41 metres tall");
  expect(tall.answer).not.toContain("112 steps");
  const many = await ask("How many steps does the Corrowick lighthouse have?");
  expect(many.answer).toContain("112 steps");
  // A year is no amount: "how much" is the tonnage, not also the year someone left.
  const much = await ask("How much coffee does the roastery produce?");
  expect(much.answer).toContain("900 tonnes");
  expect(much.answer).not.toContain("until 2015");
});

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
