// A trip's itinerary: a table of flights, a table of hotels and notes under them. Asked over real HTTP; the
// pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { brainOf, titledByHeading } from "../support/sources";

const ITINERARY = `# Portugal trip, May 2027

## Flights

| Date | Flight | From | To | Departs | Arrives |
|---|---|---|---|---|---|
| 8 May | TP 1365 | London Heathrow | Lisbon | 07:10 | 09:55 |
| 22 May | TP 1330 | Porto | London Heathrow | 18:25 | 21:20 |

## Hotels

| Nights | Hotel | City | Confirmation |
|---|---|---|---|
| 8–15 May | Casa do Largo | Lisbon | 88213 |
| 15–22 May | Ribeira Guest House | Porto | RG-4471 |

Casa do Largo is in Alfama, a five minute walk from the 28 tram. Check-in is from 15:00.
Ribeira Guest House has no lift; our room is on the third floor.`;

const PLANS = `# Things to do

A port tasting at Graham's lodge in Porto is booked for 17 May at 15:00.`;

const ask = brainOf("Portugal trip", titledByHeading(ITINERARY, PLANS));
const bikes = brainOf("Bike shop", {
  "2027 e-bike lineup": "| Model | Price | Weight |\n|---|---|---|\n| Commuter C1 | €1,899 | 21 kg |\n| Trail T2 | €3,299 | 24 kg |\n| Fold F1 | €1,499 | 17 kg |",
});

test("a noun of an action written unlike its verb stems as the verb", () => {
  const same: [string, string][] = [["flight", "fly"], ["flights", "flew"], ["arrival", "arrives"], ["renewal", "renewed"], ["death", "died"], ["payments", "pay"], ["losses", "lost"]];
  for (const [noun, verb] of same) expect(stem(noun)).toBe(stem(verb));
  // Look-alikes that are no verb's noun keep their own stems.
  const apart: [string, string][] = [["signal", "sign"], ["portal", "port"], ["pressure", "press"]];
  for (const [noun, other] of apart) expect(stem(noun)).not.toBe(stem(other));
});

test("'which hotel … in Porto?' is the Hotels row of Porto, not the flight rows naming Porto", async () => {
  // Was both flight rows and the hotel row: each named Porto, and another row scored within a fifth of the best.
  const body = await ask("Which hotel are we staying at in Porto?");
  expect(body.answer).toContain("Hotel: Ribeira Guest House");
  expect(body.answer).not.toContain("TP 1330");
  expect(body.answer).not.toContain("Casa do Largo");
});

test("'when do we fly to Lisbon?' is the flight row: 'fly' is the Flight column's word", async () => {
  // Was the flight row and the hotel row of Lisbon alike: "fly" and "Flight" were two words.
  const body = await ask("When do we fly to Lisbon?");
  expect(body.answer).toContain("Flight: TP 1365");
  expect(body.answer).not.toContain("Casa do Largo");
});

test("a row holding less of the question stays when it holds what the best row leaves open: a comparison's two rows", async () => {
  const body = await bikes("Which is cheaper, the Commuter C1 or the Fold F1?");
  expect(body.answer).toContain("Model: Commuter C1");
  expect(body.answer).toContain("Model: Fold F1");
  expect(body.answer).not.toContain("Trail T2");
});

test("a row's name leads to the sentence on its page saying what the row leaves open", async () => {
  // Was the hotel row alone: the sentence naming its hotel and the lift sits below the table.
  const body = await ask("Does the Porto hotel have a lift?");
  expect(body.answer).toContain("Hotel: Ribeira Guest House");
  expect(body.answer).toContain("Ribeira Guest House has no lift");
});
