// An incident postmortem and a runbook. Asked over real HTTP; the pages are written by the test and answers
// are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const POSTMORTEM = `# Postmortem: card payments outage, 2 February 2027

## Summary

From 14:05 to 14:52 UTC card payments failed for 38% of customers in Europe. About 12,400 payments were declined.

## What went well

The alert fired two minutes after the first failure, and Kofi Mensah, the primary on call, identified the expired certificate within 20 minutes.`;

const RUNBOOK = `# Runbook: database failover

1. Announce the failover in #payments-incidents.
2. Watch the error rate for 15 minutes.

Failover takes about 4 minutes.`;

const ask = brainOf("Payments", titledByHeading(POSTMORTEM, RUNBOOK));

test("a span of clock times says how long something lasted", async () => {
  // Was thin: "last" was said nowhere, and "outage" only by the title.
  const body = await ask("How long did the outage last?");
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("From 14:05 to 14:52 UTC card payments failed")).toBe(true);
  expect(body.answer).not.toContain("20 minutes");
  // A duration said with its verb is still the answer, alone.
  const failover = await ask("How long does a failover take?");
  expect(failover.answer).toContain("Failover takes about 4 minutes.");
  expect(failover.answer).not.toContain("15 minutes");
});

test("'what are the steps of …' is a procedure: the numbered list, whole", async () => {
  // Was two of its steps and the sentence after the list: "steps of" was no procedure, only "steps to/for".
  const body = await ask("What are the steps of a database failover?");
  expect(body.answer).toContain("1. Announce the failover in #payments-incidents.");
  expect(body.answer).toContain("2. Watch the error rate for 15 minutes.");
});
