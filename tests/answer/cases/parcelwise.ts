// A product's support pages, as support teams write them: a pricing table, a table of carriers, policies.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

const CARRIERS = ["- USPS", "- UPS", "- FedEx", "- DHL Express"];

export const PARCELWISE_TABLE: AnswerTable = {
  brain: "Parcelwise support",
  pages: {
    "Pricing and plans": `# Pricing and plans

Parcelwise has three plans. Prices are per month, billed monthly or yearly.

| Plan | Price per month | Labels included | Users | Extra label |
|---|---|---|---|---|
| Starter | $29 | 500 | 2 | $0.08 |
| Growth | $99 | 3,000 | 10 | $0.05 |
| Scale | $349 | 15,000 | Unlimited | $0.03 |

## Free trial

Every new account starts with a 14-day free trial of the Growth plan.`,
    "Supported carriers": `# Supported carriers

Parcelwise connects to these carriers.

| Carrier | Services | Pickup cutoff |
|---|---|---|
| USPS | Ground Advantage, Priority Mail | 15:00 |
| UPS | Ground, Next Day Air | 16:30 |
| FedEx | Ground, Priority Overnight | 16:00 |
| DHL Express | Express Worldwide | 14:00 |

Canada Post and Royal Mail are on the roadmap for 2027.`,
    "Store integrations": `# Store integrations

Install the Parcelwise app from the Shopify App Store. Orders sync every 5 minutes. Install the Parcelwise plugin for WooCommerce from Settings > API.`,
    "Account security": `# Account security

Shipment data is kept for 7 years for customs and tax audits. After 5 failed login attempts the account is locked for 15 minutes.`,
    "Troubleshooting labels": `# Troubleshooting labels

You can override address validation for a single shipment, but the carrier may charge an address correction fee (UPS charges $23 per correction).`,
  },
  cases: [
    { name: "'what does X cost' asks for an amount: a row's price answers it, though the row never says 'cost'", question: "What does an extra label cost on Scale?", thin: false, contains: ["Plan: Scale; Price per month: $349; Labels included: 15,000; Users: Unlimited; Extra label: $0.03"], excludes: ["Plan: Starter"] },
    // "14-day" and "7 years" are numbers, not prices: the trial sentence does not follow the price row.
    { name: "a price question is answered by an amount of money, not by any number", question: "How much does the Growth plan cost?", thin: false, contains: ["Plan: Growth; Price per month: $99"], excludes: ["free trial"] },
    { name: "a fee is an amount of money", question: "What is the fee for an address correction?", thin: false, contains: ["UPS charges $23 per correction"] },
    { name: "'which carriers are supported?' lists the table's carrier column", question: "Which carriers are supported?", thin: false, lines: CARRIERS, contains: ["[Supported carriers]"] },
    { name: "'what carriers do you support?' lists it too", question: "What carriers do you support?", thin: false, lines: CARRIERS, contains: ["[Supported carriers]"] },
    { name: "'what plans are there?' lists the plan column", question: "What plans are there?", lines: ["- Starter", "- Growth", "- Scale"] },
    { name: "a question that singles out rows is answered by those rows, not by the whole column", question: "Which carriers can ship Priority Overnight?", thin: false, contains: ["Carrier: FedEx; Services: Ground, Priority Overnight"], excludes: ["- USPS"] },
    { name: "a name no page mentions is said first, then what the closest pages say", question: "Does Parcelwise integrate with eBay?", thin: false, startsWith: "No page of this brain mentions eBay; the closest pages say:\n\n", contains: ["[Store integrations]"] },
    { name: "names the pages say get no such note", question: "How often do Shopify orders sync?", contains: ["Orders sync every 5 minutes."], excludes: ["No page of this brain"] },
    { name: "'what is X?' is answered by a sentence whose subject X is, not one naming it in passing", question: "What is Parcelwise?", thin: false, contains: [/^Parcelwise (has three plans|connects to these carriers)\./] },
  ],
};
