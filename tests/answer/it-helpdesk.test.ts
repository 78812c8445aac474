// An IT help centre, as service desks write it: numbered set-up steps, and short pages of how to reach the
// desk. Asked over real HTTP; the pages are written by the test and answers are checked for what they quote.
import { expect, test } from "bun:test";
import { queryTerms } from "../../src/retrieval";
import { brainOf, titledByHeading } from "../support/sources";

const VPN = `# VPN access

## Setting up

1. Install the WireGuard app from the company portal.
2. Request a VPN profile by opening a ticket in the IT portal with the category "Network access".
3. Import the profile file you receive by email; it expires after 90 days.
4. Turn on the tunnel named "acme-office".

## Troubleshooting

If the tunnel connects but internal sites do not load, disconnect and reconnect, or run \`sudo wg-quick down acme-office && sudo wg-quick up acme-office\`.`;

const DESK = `# Service desk

The service desk is open Monday to Friday, 8:00 to 18:00 CET.

Open tickets in the IT portal at it.acme.example or email help@acme.example.`;

const LAPTOPS = `# Laptops

Laptops are replaced every 4 years. If yours breaks, bring it to the IT desk on floor 2; a loaner is available the same day.`;

const ask = brainOf("IT help", titledByHeading(VPN, DESK, LAPTOPS));

test("numbered steps answer a 'how do I' only when their page or section names what is asked", async () => {
  // Was the whole VPN set-up: its second step opens a ticket.
  const ticket = await ask("How do I open a ticket?");
  expect(ticket.answer).toContain("Open tickets in the IT portal at it.acme.example or email help@acme.example.");
  expect(ticket.answer).not.toContain("1. Install the WireGuard app");
  // The VPN's own steps still answer setting it up, whole and in order.
  const vpn = await ask("How do I set up the VPN?");
  expect(vpn.answer).toContain("1. Install the WireGuard app from the company portal.\n2. Request a VPN profile");
  expect(vpn.answer).toContain("4. Turn on the tunnel named \"acme-office\".");
});

test("a page's set-up steps are no answer to another task on it: restarting the tunnel is its troubleshooting", async () => {
  // Was the four set-up steps: "Turn on the tunnel" holds "tunnel", though "Setting up" is not what is asked.
  const body = await ask("How do I restart the tunnel?");
  expect(body.answer).toContain("sudo wg-quick down acme-office && sudo wg-quick up acme-office");
  expect(body.answer).not.toContain("1. Install the WireGuard app");
});

test("'IT' in capitals is information technology, not the word 'it'", async () => {
  // Was the service desk's hours: "IT" was the stopword "it", so the question asked only for a "desk".
  expect(queryTerms("Where is the IT desk? Is it open?")).toEqual(["it", "desk", "open"]);
  expect(queryTerms("Is it open?")).toEqual(["open"]);
  expect(queryTerms("Who is our US distributor? Tell us")).toEqual(["us", "distributor", "tell"]);
  const body = await ask("Where is the IT desk?");
  expect(body.answer).toContain("bring it to the IT desk on floor 2");
  expect(body.answer).not.toContain("open Monday to Friday");
});
