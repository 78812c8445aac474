// A team's weekly notes beside its directory, as teams keep them. Asked over real HTTP; the pages are written by
// the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const ask = brainOf("Team", {
  "Weekly sync, 3 November 2026": `# Weekly sync, 3 November 2026

Attendees: Omar Haddad, Lena Fischer, Tomás Ruiz.

- Omar is migrating the billing service to Postgres 16; cut-over planned for 20 November.
- Tomás is hiring two backend engineers; interviews start next week.`,
  "Weekly sync, 10 November 2026": `# Weekly sync, 10 November 2026

Attendees: Omar Haddad, Lena Fischer.

- Lena will lead the accessibility audit in December.`,
  "Team directory": `# Team directory

| Name | Role | Location |
|---|---|---|
| Omar Haddad | Staff engineer, payments | Amsterdam |
| Lena Fischer | Mobile lead | Berlin |
| Tomás Ruiz | Engineering manager | Madrid |`,
});

test("'who is' a person is not also the lists of names she is in", async () => {
  // Was followed by both syncs' "Attendees: …" lines.
  const body = await ask("Who is Lena Fischer?");
  expect(body.answer).toContain("Name: Lena Fischer; Role: Mobile lead; Location: Berlin.");
  expect(body.answer).not.toContain("Attendees:");
});

test("'where is someone based' is said by a place said as one, alone", async () => {
  // Was also the attendee list and his hiring: the row did not say "based".
  const body = await ask("Where is Tomás based?");
  expect(body.answer).toContain("Name: Tomás Ruiz; Role: Engineering manager; Location: Madrid.");
  expect(body.answer).not.toContain("hiring");
  expect(body.answer).not.toContain("Attendees:");
});

test("who attended is still the list of names", async () => {
  const body = await ask("Who attended the sync on 10 November?");
  expect(body.answer).toContain("Attendees: Omar Haddad, Lena Fischer.");
});
