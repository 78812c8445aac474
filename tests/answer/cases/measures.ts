// "How long / how old / how far / how tall / how often" ask for a measure of that kind, not any number: the
// sentence giving the duration answers "how long", not the one counting runners. Pages are written by the
// test; answers are checked for the sentence, over real HTTP.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const MEASURES_TABLE: AnswerTable = {
  brain: "Races",
  pages: {
  "Harbour Run": "The Harbour Run is a race for 250 runners along the old quay. The Harbour Run takes about three hours for most runners. It has been held every spring since 1987.",
  Lighthouse: "The Corrowick lighthouse has 112 steps and two keepers. The Corrowick lighthouse is 41 metres tall.",
  Refunds: "You can return most items within 30 days of delivery for a full refund. Items that cannot be returned: gift cards. Refunds go back to the original payment method within 5 to 7 business days after we receive the item.",
  Roastery: "The Water Street roastery roasts about 900 tonnes of coffee a year.",
  "Tom Harlow": "Tom Harlow co-founded Northwind Coffee and ran its roastery until 2015.",
},
  cases: [
    { name: "'how long' is answered by a duration, 'how tall' by a height, 'how many' and 'how much' by a count or an amount · How long is the Harbour Run?", question: "How long is the Harbour Run?", contains: ["takes about three hours"], excludes: ["250 runners"] },
    // A word between the number and its unit: "5 to 7 business days" is a duration too.
    { name: "'how long' is answered by a duration, 'how tall' by a height, 'how many' and 'how much' by a count or an amount · How long does a refund take?", question: "How long does a refund take?", contains: ["within 5 to 7 business days"] },
    { name: "'how long' is answered by a duration, 'how tall' by a height, 'how many' and 'how much' by a count or an amount · How tall is the Corrowick lighthouse?", question: "How tall is the Corrowick lighthouse?", contains: ["41 metres tall"], excludes: ["112 steps"] },
    { name: "'how long' is answered by a duration, 'how tall' by a height, 'how many' and 'how much' by a count or an amount · How many steps does the Corrowick lighthouse have?", question: "How many steps does the Corrowick lighthouse have?", contains: ["112 steps"] },
    // A year is no amount: "how much" is the tonnage, not also the year someone left.
    { name: "'how long' is answered by a duration, 'how tall' by a height, 'how many' and 'how much' by a count or an amount · How much coffee does the roastery produce?", question: "How much coffee does the roastery produce?", contains: ["900 tonnes"], excludes: ["until 2015"] },
  ],
};
