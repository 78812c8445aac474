// A project's meeting notes, titled by meeting and date, and its team page. Asked over real HTTP; the pages
// are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { brainOf, titledByHeading } from "../support/sources";

const PLANNING = `# Planning meeting, 6 October 2026

## Action items

- Luis: finish the push notification service by October 20.
- Hannah: deliver the onboarding screens to engineering by October 13.`;

const SYNC = `# Engineering sync, 13 October 2026

Attendees: Maya Chen, Luis Ortega, Omar Haddad, Priya Nair.

Priya reported that the crash on Android 12 came from an outdated image library; upgrading it fixed the crash on all test devices.

The push notification service is 70% done. Luis expects it to be ready on October 22, two days late, because the vendor's API changed its token format.`;

const TEAM = `# Project Lantern team

Project Lantern is the mobile app for our field-service customers. Escalations go to Maya. The team's channel is #lantern.

| Name | Role | Location |
|---|---|---|
| Maya Chen | Product manager | Berlin |
| Omar Haddad | Account executive | London |`;

const STUDY = `# Brandt and Liu (2021): caffeine and reaction time

A randomized controlled trial with 96 adults.`;

const ask = brainOf("Lantern notes", titledByHeading(PLANNING, SYNC, TEAM, STUDY));

test("a '-tion' noun stems as its verb when English writes it, and only then", () => {
  const same: [string, string][] = [["escalations", "escalate"], ["deletion", "delete"], ["connection", "connect"], ["creation", "create"], ["selection", "select"]];
  for (const [noun, verb] of same) expect(stem(noun)).toBe(stem(verb));
  const apart: [string, string][] = [["station", "state"], ["notion", "note"], ["portion", "port"], ["question", "quest"], ["definition", "definite"], ["vacation", "vacate"]];
  for (const [noun, other] of apart) expect(stem(noun)).not.toBe(stem(other));
});

test("'who should I escalate to?' is answered by 'Escalations go to Maya.'", async () => {
  // Was thin: "escalations" and "escalate" were two words to the answerer.
  const body = await ask("Who should I escalate to?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Escalations go to Maya.");
});

test("a meeting's title names no one (a month is no name), a study's names its authors, and dates its notes", async () => {
  // Was "Engineering sync, 13 October 2026: The push notification service is 70% done.", as if the title named who.
  const who = await ask("Who is responsible for the push notification service?");
  expect(who.answer).toContain("Luis: finish the push notification service by October 20.");
  expect(who.answer).not.toContain("Engineering sync, 13 October 2026:");
  // A title naming people does say who: the study's authors are its title's.
  const authors = await ask("Who did the caffeine trial?");
  expect(authors.answer).toContain("Brandt and Liu (2021): caffeine and reaction time: A randomized controlled trial with 96 adults.");
  // The notes' date is their title's: quoted with the sentence that answers.
  const when = await ask("When did Priya fix the Android crash?");
  expect(when.answer).toContain("Engineering sync, 13 October 2026: Priya reported that the crash on Android 12 came from an outdated image library");
});

test("'where is X?' is answered by the row saying X's location, not by a list naming X among others", async () => {
  // Was "Attendees: Maya Chen, Luis Ortega, Omar Haddad, Priya Nair." first: its capitalized names read as places.
  const body = await ask("Where is Omar?");
  expect(body.answer).toContain("Name: Omar Haddad; Role: Account executive; Location: London.");
  expect(body.answer).not.toContain("Attendees");
});
