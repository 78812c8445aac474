// An IT help centre, as service desks write it: numbered set-up steps, and short pages of how to reach the
// desk. Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const IT_HELPDESK_TABLE: AnswerTable = {
  brain: "IT help",
  pages: {
    "VPN access": `# VPN access

## Setting up

1. Install the WireGuard app from the company portal.
2. Request a VPN profile by opening a ticket in the IT portal with the category "Network access".
3. Import the profile file you receive by email; it expires after 90 days.
4. Turn on the tunnel named "acme-office".

## Troubleshooting

If the tunnel connects but internal sites do not load, disconnect and reconnect, or run \`sudo wg-quick down acme-office && sudo wg-quick up acme-office\`.`,
    "Service desk": `# Service desk

The service desk is open Monday to Friday, 8:00 to 18:00 CET.

Open tickets in the IT portal at it.acme.example or email help@acme.example.`,
    Laptops: `# Laptops

Laptops are replaced every 4 years. If yours breaks, bring it to the IT desk on floor 2; a loaner is available the same day.`,
  },
  cases: [
    // Was the whole VPN set-up: its second step opens a ticket.
    { name: "numbered steps answer a 'how do I' only when their page or section names what is asked", question: "How do I open a ticket?", contains: ["Open tickets in the IT portal at it.acme.example or email help@acme.example."], excludes: ["1. Install the WireGuard app"] },
    { name: "a page's own steps answer setting it up, whole and in order", question: "How do I set up the VPN?", contains: ["1. Install the WireGuard app from the company portal.\n2. Request a VPN profile", "4. Turn on the tunnel named \"acme-office\"."] },
    // Was the four set-up steps: "Turn on the tunnel" holds "tunnel", though "Setting up" is not what is asked.
    { name: "a page's set-up steps are no answer to another task on it: restarting the tunnel is its troubleshooting", question: "How do I restart the tunnel?", contains: ["sudo wg-quick down acme-office && sudo wg-quick up acme-office"], excludes: ["1. Install the WireGuard app"] },
    // Was the service desk's hours: "IT" was the stopword "it", so the question asked only for a "desk".
    { name: "'IT' in capitals is information technology, not the word 'it'", question: "Where is the IT desk?", contains: ["bring it to the IT desk on floor 2"], excludes: ["open Monday to Friday"] },
  ],
};
