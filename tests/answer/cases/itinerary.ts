// A trip's itinerary (a table of flights, a table of hotels and notes under them) and a bike shop's lineup.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const ITINERARY_TABLE: AnswerTable = {
  brain: "Portugal trip",
  pages: {
    "Portugal trip, May 2027": `# Portugal trip, May 2027

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
Ribeira Guest House has no lift; our room is on the third floor.`,
    "Things to do": `# Things to do

A port tasting at Graham's lodge in Porto is booked for 17 May at 15:00.`,
  },
  cases: [
    // Was both flight rows and the hotel row: each named Porto, and another row scored within a fifth of the best.
    { name: "'which hotel … in Porto?' is the Hotels row of Porto, not the flight rows naming Porto", question: "Which hotel are we staying at in Porto?", contains: ["Hotel: Ribeira Guest House"], excludes: ["TP 1330", "Casa do Largo"] },
    // Was the flight row and the hotel row of Lisbon alike: "fly" and "Flight" were two words.
    { name: "'when do we fly to Lisbon?' is the flight row: 'fly' is the Flight column's word", question: "When do we fly to Lisbon?", contains: ["Flight: TP 1365"], excludes: ["Casa do Largo"] },
    // Was the hotel row alone: the sentence naming its hotel and the lift sits below the table.
    { name: "a row's name leads to the sentence on its page saying what the row leaves open", question: "Does the Porto hotel have a lift?", contains: ["Hotel: Ribeira Guest House", "Ribeira Guest House has no lift"] },
  ],
};

export const BIKE_SHOP_TABLE: AnswerTable = {
  brain: "Bike shop",
  pages: {
    "2027 e-bike lineup": "| Model | Price | Weight |\n|---|---|---|\n| Commuter C1 | €1,899 | 21 kg |\n| Trail T2 | €3,299 | 24 kg |\n| Fold F1 | €1,499 | 17 kg |",
  },
  cases: [
    { name: "a row holding less of the question stays when it holds what the best row leaves open: a comparison's two rows", question: "Which is cheaper, the Commuter C1 or the Fold F1?", contains: ["Model: Commuter C1", "Model: Fold F1"], excludes: ["Trail T2"] },
  ],
};
