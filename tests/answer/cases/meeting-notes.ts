// A project's meeting notes, titled by meeting and date, and its team page. The pages
// are written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const PLANNING = `# Planning meeting, 6 October 2026

## Action items

- Luis: finish the push notification service by October 20.
- Hannah: deliver the onboarding screens to engineering by October 13.`;

export const SYNC = `# Engineering sync, 13 October 2026

Attendees: Maya Chen, Luis Ortega, Omar Haddad, Priya Nair.

Priya reported that the crash on Android 12 came from an outdated image library; upgrading it fixed the crash on all test devices.

The push notification service is 70% done. Luis expects it to be ready on October 22, two days late, because the vendor's API changed its token format.`;

export const TEAM = `# Project Lantern team

Project Lantern is the mobile app for our field-service customers. Escalations go to Maya. The team's channel is #lantern.

| Name | Role | Location |
|---|---|---|
| Maya Chen | Product manager | Berlin |
| Omar Haddad | Account executive | London |`;

export const STUDY = `# Brandt and Liu (2021): caffeine and reaction time

A randomized controlled trial with 96 adults.`;

export const MEETING_NOTES_TABLE: AnswerTable = {
  brain: "Lantern notes",
  pages: titledByHeading(PLANNING, SYNC, TEAM, STUDY),
  cases: [
    // Was thin: "escalations" and "escalate" were two words to the answerer.
    { name: "'who should I escalate to?' is answered by 'Escalations go to Maya.'", question: "Who should I escalate to?", contains: ["Escalations go to Maya."], thin: false },
    // Was "Engineering sync, 13 October 2026: The push notification service is 70% done.", as if the title named who.
    { name: "a meeting's title names no one (a month is no name), a study's names its authors, and dates its notes · Who is responsible for the push notification service?", question: "Who is responsible for the push notification service?", contains: ["Luis: finish the push notification service by October 20."], excludes: ["Engineering sync, 13 October 2026:"] },
    // A title naming people does say who: the study's authors are its title's.
    { name: "a meeting's title names no one (a month is no name), a study's names its authors, and dates its notes · Who did the caffeine trial?", question: "Who did the caffeine trial?", contains: ["Brandt and Liu (2021): caffeine and reaction time: A randomized controlled trial with 96 adults."] },
    // The notes' date is their title's: quoted with the sentence that answers.
    { name: "a meeting's title names no one (a month is no name), a study's names its authors, and dates its notes · When did Priya fix the Android crash?", question: "When did Priya fix the Android crash?", contains: ["Engineering sync, 13 October 2026: Priya reported that the crash on Android 12 came from an outdated image library"] },
    // Was "Attendees: Maya Chen, Luis Ortega, Omar Haddad, Priya Nair." first: its capitalized names read as places.
    { name: "'where is X?' is answered by the row saying X's location, not by a list naming X among others", question: "Where is Omar?", contains: ["Name: Omar Haddad; Role: Account executive; Location: London."], excludes: ["Attendees"] },
  ],
};
