// Decision records and rotas, as teams write them: a metadata list ("Status", "Date", "Deciders"), sections
// with lists under headings, a table of week ranges. Asked over real HTTP; the pages are written by the test
// and answers are checked for the sentences they should quote.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server";
import { addTextsReady, askBrain, newBrain, titledByHeading } from "../support/sources";

const ADR_5 = `# ADR-005: Replace Kafka with NATS JetStream

- Status: Accepted
- Date: 2025-11-20
- Deciders: Priya Raman, Lena Fischer

## Context

The Kafka cluster from ADR-002 is oversized for our traffic of about 40 events a second, and only Tomasz knew how to operate it.

## Decision

We will move order events to NATS JetStream, which the platform team already runs for notifications.

## Consequences

- The monthly cost falls to about 300 EUR.
- Retention drops from seven days to three days, which analytics accepted.
- Kafka is switched off on 31 January 2026.`;

const ADR_2 = `# ADR-002: Publish order events through Kafka

- Status: Superseded by ADR-005
- Date: 2025-04-02

## Decision

The order service publishes an event to a Kafka topic named orders.v1 for every state change.`;

const ROTA = `# On-call rotation, first quarter 2026

The secondary takes over when the primary does not acknowledge a page within 10 minutes.

| Weeks | Primary | Secondary |
|---|---|---|
| 1-4 | Lena Fischer | Priya Raman |
| 5-8 | Priya Raman | Omar Haddad |
| 9-13 | Omar Haddad | Lena Fischer |`;

const BACKUPS = `# Backups

Proxmox Backup Server takes snapshots of every VM at 02:00 each night and keeps 7 daily and 4 weekly copies.

## Restoring a VM

1. Open the Proxmox web interface on the host the VM ran on.
2. Select the backup storage and pick the snapshot.`;

const RACK = `# Homelab hosts

All hosts are in the server rack in the basement. The rack's UPS keeps everything running for about 25 minutes.`;

const LAB_CHANGES = `# Lab changelog

## 2026-02-14
- Upgraded OPNsense on the edge router to 24.7.

## 2026-01-03
- Added a second UPS battery.
- Upgraded Proxmox on pve1 to 8.2.`;

let s: TestServer;
let brainId: string;
let labId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Orders team");
  await addTextsReady(s, brainId, titledByHeading(ADR_5, ADR_2, ROTA));
  labId = await newBrain(s, "Homelab");
  await addTextsReady(s, labId, titledByHeading(BACKUPS, RACK, LAB_CHANGES));
});
afterAll(() => s.close());

const ask = (question: string, brain = brainId) => askBrain(s, brain, question);

test("'when' of a record's status is read with the date beside it; an identifier's number is no year", async () => {
  const body = await ask("When was ADR-005 accepted?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Status: Accepted. Date: 2025-11-20.");
  // "ADR-005" in the title is no time, so the title is not quoted as the item's date; nor is the other
  // sentence saying "accepted" without a time.
  expect(body.answer).not.toContain("JetStream: Status");
  expect(body.answer).not.toContain("Retention drops");
});

test("'who decided' is answered by the record's deciders", async () => {
  const body = await ask("Who decided to adopt NATS?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Deciders: Priya Raman, Lena Fischer.");
});

test("'what are the consequences of …' is the list under the Consequences heading, whole and in order", async () => {
  const body = await ask("What are the consequences of moving to NATS?");
  expect(body.thin).toBe(false);
  const lines = body.answer.split("\n");
  expect(lines.slice(0, 3).map((l: string) => l.replace(/\s*\[.*$/, ""))).toEqual([
    "- The monthly cost falls to about 300 EUR.",
    "- Retention drops from seven days to three days, which analytics accepted.",
    "- Kafka is switched off on 31 January 2026.",
  ]);
  expect(body.answer).not.toContain("We will move order events");
});

test("a week inside a table's range finds its row", async () => {
  const six = await ask("Who is on call in week 6?");
  expect(six.thin).toBe(false);
  expect(six.answer).toContain("Weeks: 5-8; Primary: Priya Raman; Secondary: Omar Haddad");
  expect(six.answer).not.toContain("Lena Fischer");
  // A range's ends are in it; the row is preferred to a sentence that only shares the number ("10 minutes").
  const ten = await ask("Who is the primary on call in week 9?");
  expect(ten.answer).toContain("Weeks: 9-13; Primary: Omar Haddad");
});

test("'which …' answered by a page whose title names it all quotes the title", async () => {
  const body = await ask("Which ADR replaced Kafka?");
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("ADR-005: Replace Kafka with NATS JetStream.")).toBe(true);
  expect(body.answer).not.toContain("Status: Accepted");
});

test("a sentence without the time asked for brings its page's sentence that has it", async () => {
  // The restore step says all the words ("the host the VM RAN on", under "Backups") but no time.
  const body = await ask("When do backups run?", labId);
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("at 02:00 each night");
});

test("'a second UPS battery' is no duration, and a changelog's date is no span of years", async () => {
  const body = await ask("How long does the UPS last?", labId);
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("The rack's UPS keeps everything running for about 25 minutes.")).toBe(true);
  expect(body.answer).not.toContain("2026-01-03: Added");
});

test("a month asked for is said by an ISO date in the item or its heading", async () => {
  const body = await ask("What was upgraded in February?", labId);
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Upgraded OPNsense on the edge router to 24.7.");
  expect(body.answer).not.toContain("Proxmox on pve1");
});

test("a time of day asked for still finds the sentence that states it", async () => {
  // The hour weighs half its rarity and the minutes nothing: "ran on" in a restore step holds the verb.
  const body = await ask("What runs at 02:00?", labId);
  expect(body.thin).toBe(false);
  expect(body.answer).toStartWith("Proxmox Backup Server takes snapshots of every VM at 02:00 each night");
});
