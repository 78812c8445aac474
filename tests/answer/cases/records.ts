// Decision records and rotas, as teams write them: a metadata list ("Status", "Date", "Deciders"), sections
// with lists under headings, a table of week ranges; and a homelab's backups, rack and changelog.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const ORDERS_TEAM_TABLE: AnswerTable = {
  brain: "Orders team",
  pages: {
    "ADR-005: Replace Kafka with NATS JetStream": `# ADR-005: Replace Kafka with NATS JetStream

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
- Kafka is switched off on 31 January 2026.`,
    "ADR-002: Publish order events through Kafka": `# ADR-002: Publish order events through Kafka

- Status: Superseded by ADR-005
- Date: 2025-04-02

## Decision

The order service publishes an event to a Kafka topic named orders.v1 for every state change.`,
    "On-call rotation, first quarter 2026": `# On-call rotation, first quarter 2026

The secondary takes over when the primary does not acknowledge a page within 10 minutes.

| Weeks | Primary | Secondary |
|---|---|---|
| 1-4 | Lena Fischer | Priya Raman |
| 5-8 | Priya Raman | Omar Haddad |
| 9-13 | Omar Haddad | Lena Fischer |`,
  },
  cases: [
    // "ADR-005" in the title is no time, so the title is not quoted as the item's date; nor is the other
    // sentence saying "accepted" without a time.
    { name: "'when' of a record's status is read with the date beside it; an identifier's number is no year", question: "When was ADR-005 accepted?", thin: false, contains: ["Status: Accepted. Date: 2025-11-20."], excludes: ["JetStream: Status", "Retention drops"] },
    { name: "'who decided' is answered by the record's deciders", question: "Who decided to adopt NATS?", thin: false, contains: ["Deciders: Priya Raman, Lena Fischer."] },
    { name: "'what are the consequences of …' is the list under the Consequences heading, whole and in order", question: "What are the consequences of moving to NATS?", thin: false, contains: [/^- The monthly cost falls to about 300 EUR\.[^\n]*\n- Retention drops from seven days to three days, which analytics accepted\.[^\n]*\n- Kafka is switched off on 31 January 2026\./], excludes: ["We will move order events"] },
    { name: "a week inside a table's range finds its row", question: "Who is on call in week 6?", thin: false, contains: ["Weeks: 5-8; Primary: Priya Raman; Secondary: Omar Haddad"], excludes: ["Lena Fischer"] },
    // A range's ends are in it; the row is preferred to a sentence that only shares the number ("10 minutes").
    { name: "a range's ends are in it", question: "Who is the primary on call in week 9?", contains: ["Weeks: 9-13; Primary: Omar Haddad"] },
    { name: "'which …' answered by a page whose title names it all quotes the title", question: "Which ADR replaced Kafka?", thin: false, startsWith: "ADR-005: Replace Kafka with NATS JetStream.", excludes: ["Status: Accepted"] },
  ],
};

export const HOMELAB_RECORDS_TABLE: AnswerTable = {
  brain: "Homelab records",
  pages: {
    Backups: `# Backups

Proxmox Backup Server takes snapshots of every VM at 02:00 each night and keeps 7 daily and 4 weekly copies.

## Restoring a VM

1. Open the Proxmox web interface on the host the VM ran on.
2. Select the backup storage and pick the snapshot.`,
    "Homelab hosts": `# Homelab hosts

All hosts are in the server rack in the basement. The rack's UPS keeps everything running for about 25 minutes.`,
    "Lab changelog": `# Lab changelog

## 2026-02-14
- Upgraded OPNsense on the edge router to 24.7.

## 2026-01-03
- Added a second UPS battery.
- Upgraded Proxmox on pve1 to 8.2.`,
  },
  cases: [
    // The restore step says all the words ("the host the VM RAN on", under "Backups") but no time.
    { name: "a sentence without the time asked for brings its page's sentence that has it", question: "When do backups run?", thin: false, contains: ["at 02:00 each night"] },
    { name: "'a second UPS battery' is no duration, and a changelog's date is no span of years", question: "How long does the UPS last?", thin: false, startsWith: "The rack's UPS keeps everything running for about 25 minutes.", excludes: ["2026-01-03: Added"] },
    { name: "a month asked for is said by an ISO date in the item or its heading", question: "What was upgraded in February?", thin: false, contains: ["Upgraded OPNsense on the edge router to 24.7."], excludes: ["Proxmox on pve1"] },
    // The hour weighs half its rarity and the minutes nothing: "ran on" in a restore step holds the verb.
    { name: "a time of day asked for still finds the sentence that states it", question: "What runs at 02:00?", thin: false, startsWith: "Proxmox Backup Server takes snapshots of every VM at 02:00 each night" },
  ],
};
