// A product's support pages, as support teams write them: a pricing table, a table of carriers, policies.
// Asked over real HTTP; the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const PRICING = `# Pricing and plans

Parcelwise has three plans. Prices are per month, billed monthly or yearly.

| Plan | Price per month | Labels included | Users | Extra label |
|---|---|---|---|---|
| Starter | $29 | 500 | 2 | $0.08 |
| Growth | $99 | 3,000 | 10 | $0.05 |
| Scale | $349 | 15,000 | Unlimited | $0.03 |

## Free trial

Every new account starts with a 14-day free trial of the Growth plan.`;

const CARRIERS = `# Supported carriers

Parcelwise connects to these carriers.

| Carrier | Services | Pickup cutoff |
|---|---|---|
| USPS | Ground Advantage, Priority Mail | 15:00 |
| UPS | Ground, Next Day Air | 16:30 |
| FedEx | Ground, Priority Overnight | 16:00 |
| DHL Express | Express Worldwide | 14:00 |

Canada Post and Royal Mail are on the roadmap for 2027.`;

const INTEGRATIONS = `# Store integrations

Install the Parcelwise app from the Shopify App Store. Orders sync every 5 minutes. Install the Parcelwise plugin for WooCommerce from Settings > API.`;

const SECURITY = `# Account security

Shipment data is kept for 7 years for customs and tax audits. After 5 failed login attempts the account is locked for 15 minutes.`;

const FIXES = `# Troubleshooting labels

You can override address validation for a single shipment, but the carrier may charge an address correction fee (UPS charges $23 per correction).`;

const ask = brainOf("Parcelwise support", titledByHeading(PRICING, CARRIERS, INTEGRATIONS, SECURITY, FIXES));
/** An answer's lines without their citations. */
const lines = (answer: string) => answer.split("\n").map((l) => l.replace(/\s*\[.*$/, ""));

test("'what does X cost' asks for an amount: a row's price answers it, though the row never says 'cost'", async () => {
  const body = await ask("What does an extra label cost on Scale?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Plan: Scale; Price per month: $349; Labels included: 15,000; Users: Unlimited; Extra label: $0.03");
  expect(body.answer).not.toContain("Plan: Starter");
});

test("a price question is answered by an amount of money, not by any number", async () => {
  // "14-day" and "7 years" are numbers, not prices: the trial sentence does not follow the price row.
  const growth = await ask("How much does the Growth plan cost?");
  expect(growth.thin).toBe(false);
  expect(growth.answer).toContain("Plan: Growth; Price per month: $99");
  expect(growth.answer).not.toContain("free trial");
  const fee = await ask("What is the fee for an address correction?");
  expect(fee.thin).toBe(false);
  expect(fee.answer).toContain("UPS charges $23 per correction");
});

test("'which carriers are supported?' lists the table's carrier column", async () => {
  for (const question of ["Which carriers are supported?", "What carriers do you support?"]) {
    const body = await ask(question);
    expect(body.thin).toBe(false);
    expect(lines(body.answer)).toEqual(["- USPS", "- UPS", "- FedEx", "- DHL Express"]);
    expect(body.answer).toContain("[Supported carriers]");
  }
  const plans = await ask("What plans are there?");
  expect(lines(plans.answer)).toEqual(["- Starter", "- Growth", "- Scale"]);
});

test("a question that singles out rows is answered by those rows, not by the whole column", async () => {
  const body = await ask("Which carriers can ship Priority Overnight?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Carrier: FedEx; Services: Ground, Priority Overnight");
  expect(body.answer).not.toContain("- USPS");
});

test("a name no page mentions is said first, then what the closest pages say", async () => {
  const ebay = await ask("Does Parcelwise integrate with eBay?");
  expect(ebay.thin).toBe(false);
  expect(ebay.answer.startsWith("No page of this brain mentions eBay; the closest pages say:\n\n")).toBe(true);
  expect(ebay.answer).toContain("[Store integrations]");
  // Names the pages say get no such note.
  const shopify = await ask("How often do Shopify orders sync?");
  expect(shopify.answer).not.toContain("No page of this brain");
  expect(shopify.answer).toContain("Orders sync every 5 minutes.");
});

test("'what is X?' is answered by a sentence whose subject X is, not one naming it in passing", async () => {
  const body = await ask("What is Parcelwise?");
  expect(body.thin).toBe(false);
  expect(body.answer).toMatch(/^Parcelwise (has three plans|connects to these carriers)\./);
});
