// A homelab runbook, as its owner writes one, beside an unrelated page that says "last". Asked over real HTTP;
// the pages are written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const RUNBOOK = `# Homelab runbook

The homelab runs on three Intel NUC machines in a Proxmox cluster, plus a Synology NAS for storage.

## Backups

Proxmox backs up every VM to the NAS nightly at 02:00. Backups are kept for 14 days. The NAS itself is copied to Backblaze B2 every Sunday.

## Updates

Proxmox hosts are updated on the first Saturday of each month. Reboot one node at a time and check that the cluster is healthy with \`pvecm status\` before moving to the next.

## Power

A CyberPower UPS keeps the rack running for about 25 minutes in a power cut.`;

export const NOTES = `# Team notes

Last reviewed 2 November 2026. The last meeting of the year is on 15 December.`;

export const HOMELAB_TABLE: AnswerTable = {
  brain: "Homelab",
  pages: { "Homelab runbook": RUNBOOK, "Team notes": NOTES },
  cases: [
    // Was the retention sentence, which says nothing of when backups run.
    { name: "a compound the question writes as one word is found written as two ('backups' of 'backs up')", question: "When do backups run?", startsWith: "Proxmox backs up every VM to the NAS nightly at 02:00.", thin: false },
    // Was followed by another page's "Last reviewed 2 November 2026.": "running for about 25 minutes" did not say "last".
    { name: "'how long does it last' is answered by the time it goes on for, alone", question: "How long does the UPS last?", contains: ["A CyberPower UPS keeps the rack running for about 25 minutes in a power cut."], excludes: ["Last reviewed"], thin: false },
    // Was the schedule alone: the steps do not repeat "update", their heading does.
    { name: "'how do I' is answered with the steps after the sentence naming the action in its section", question: "How do I update the Proxmox hosts?", contains: ["Proxmox hosts are updated on the first Saturday of each month.", "Reboot one node at a time and check that the cluster is healthy with `pvecm status` before moving to the next."] },
    { name: "a section's steps are quoted only for a 'how do I'", question: "When are the Proxmox hosts updated?", contains: ["Proxmox hosts are updated on the first Saturday of each month."], excludes: ["Reboot one node"] },
  ],
};
