// An incident postmortem and a runbook. The pages are written by the test and answers
// are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const POSTMORTEM = `# Postmortem: card payments outage, 2 February 2027

## Summary

From 14:05 to 14:52 UTC card payments failed for 38% of customers in Europe. About 12,400 payments were declined.

## What went well

The alert fired two minutes after the first failure, and Kofi Mensah, the primary on call, identified the expired certificate within 20 minutes.`;

export const RUNBOOK = `# Runbook: database failover

1. Announce the failover in #payments-incidents.
2. Watch the error rate for 15 minutes.

Failover takes about 4 minutes.`;

export const POSTMORTEM_TABLE: AnswerTable = {
  brain: "Payments",
  pages: titledByHeading(POSTMORTEM, RUNBOOK),
  cases: [
    // Was thin: "last" was said nowhere, and "outage" only by the title.
    { name: "a span of clock times says how long something lasted · How long did the outage last?", question: "How long did the outage last?", excludes: ["20 minutes"], startsWith: "From 14:05 to 14:52 UTC card payments failed", thin: false },
    // A duration said with its verb is still the answer, alone.
    { name: "a span of clock times says how long something lasted · How long does a failover take?", question: "How long does a failover take?", contains: ["Failover takes about 4 minutes."], excludes: ["15 minutes"] },
    // Was two of its steps and the sentence after the list: "steps of" was no procedure, only "steps to/for".
    { name: "'what are the steps of …' is a procedure: the numbered list, whole", question: "What are the steps of a database failover?", contains: ["1. Announce the failover in #payments-incidents.", "2. Watch the error rate for 15 minutes."] },
  ],
};
