// A homelab runbook, as its owner writes one, beside an unrelated page that says "last". Asked over real HTTP;
// the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const RUNBOOK = `# Homelab runbook

The homelab runs on three Intel NUC machines in a Proxmox cluster, plus a Synology NAS for storage.

## Backups

Proxmox backs up every VM to the NAS nightly at 02:00. Backups are kept for 14 days. The NAS itself is copied to Backblaze B2 every Sunday.

## Updates

Proxmox hosts are updated on the first Saturday of each month. Reboot one node at a time and check that the cluster is healthy with \`pvecm status\` before moving to the next.

## Power

A CyberPower UPS keeps the rack running for about 25 minutes in a power cut.`;

const NOTES = `# Team notes

Last reviewed 2 November 2026. The last meeting of the year is on 15 December.`;

const ask = brainOf("Homelab", { "Homelab runbook": RUNBOOK, "Team notes": NOTES });

test("a compound the question writes as one word is found written as two ('backups' of 'backs up')", async () => {
  // Was the retention sentence, which says nothing of when backups run.
  const body = await ask("When do backups run?");
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("Proxmox backs up every VM to the NAS nightly at 02:00.")).toBe(true);
});

test("'how long does it last' is answered by the time it goes on for, alone", async () => {
  // Was followed by another page's "Last reviewed 2 November 2026.": "running for about 25 minutes" did not say "last".
  const body = await ask("How long does the UPS last?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("A CyberPower UPS keeps the rack running for about 25 minutes in a power cut.");
  expect(body.answer).not.toContain("Last reviewed");
});

test("'how do I' is answered with the steps after the sentence naming the action in its section", async () => {
  // Was the schedule alone: the steps do not repeat "update", their heading does.
  const body = await ask("How do I update the Proxmox hosts?");
  expect(body.answer).toContain("Proxmox hosts are updated on the first Saturday of each month.");
  expect(body.answer).toContain("Reboot one node at a time and check that the cluster is healthy with `pvecm status` before moving to the next.");
});

test("a section's steps are quoted only for a 'how do I'", async () => {
  const body = await ask("When are the Proxmox hosts updated?");
  expect(body.answer).toContain("Proxmox hosts are updated on the first Saturday of each month.");
  expect(body.answer).not.toContain("Reboot one node");
});
