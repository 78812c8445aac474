// A source page's lead (its summary, first on the page) from the page's most central sentence: never a field,
// a page's stamp or a greeting, which repeat the title's words without saying what the page is about.
import { expect, test } from "bun:test";
import { extractiveLead } from "../../src/concepts/lead";

test("meeting notes are not led by a field: 'Next sync: October 20.' repeats the title's words, says nothing", () => {
  const sync = `# Engineering sync, 13 October 2026

Attendees: Luis Ortega, Priya Nair, Jonas Weber.

Priya reported that the crash on Android 12 came from an outdated image library.

The push notification service is 70% done, two days late because the vendor changed its token format.

Next sync: October 20.`;
  const lead = extractiveLead(sync, "Engineering sync, 13 October 2026");
  expect(lead).not.toBe("Next sync: October 20.");
  expect(lead).not.toStartWith("Attendees:");
  expect(lead).not.toBe("");
});

test("a labelled sentence that says something can lead: 'Decision: the launch stays on November 17.'", () => {
  const review = `# Launch review, 20 October 2026

Attendees: Maya Chen, Luis Ortega.

The payment provider approved the checkout flow without changes.

The beta has 412 testers.

Decision: the launch stays on November 17, and the launch campaign starts on November 10.`;
  expect(extractiveLead(review, "Launch review, 20 October 2026")).toBe("Decision: the launch stays on November 17, and the launch campaign starts on November 10.");
});

test("a wiki page is not led by its stamp or its greeting", () => {
  const onboarding = `# Engineering onboarding

Last updated by Rosa Lindqvist on 3 September 2026 for engineering onboarding.

Welcome to Acme engineering onboarding! This page lists everything engineering needs for onboarding in the first two weeks.

Collect your laptop from IT on the 4th floor.`;
  expect(extractiveLead(onboarding, "Engineering onboarding")).toBe("This page lists everything engineering needs for onboarding in the first two weeks.");
});

test("notes made mostly of list items have no lead: their paragraphs are the fields around the list", () => {
  // Was led by its last action item, "Lena to contact affected users.".
  const sync = `# Weekly sync, 3 November 2026

Attendees: Omar Haddad, Lena Fischer, Tomás Ruiz.

- Omar is migrating the billing service to Postgres 16; cut-over planned for 20 November.
- Lena reported that the Android app crashes on start for users on Android 9. She will ship a fix in 5.3.1.
- Tomás is hiring two backend engineers; interviews start next week.

Action items: Omar to write the rollback plan. Lena to contact affected users.`;
  expect(extractiveLead(sync, "Weekly sync, 3 November 2026")).toBe("");
  // Prose with a short list in it still has one.
  const prose = `# Billing migration

The billing service moves from MySQL to Postgres 16 this quarter. The migration keeps every invoice's history.

The cut-over is planned for 20 November and takes about an hour. Invoices are frozen during the cut-over.

- Finance signs off first.`;
  expect(extractiveLead(prose, "Billing migration")).not.toBe("");
});

test("a FAQ of question headings has no lead: one answer is no summary of the others", () => {
  // Was led by its first answer's second sentence, "Monthly plans are not refunded, …".
  const faq = `# Billing FAQ

## How do refunds work?

We refund annual plans in full within 30 days of purchase. Monthly plans are not refunded, but you can cancel at any time.

## Which payment methods do you accept?

Visa, Mastercard, American Express and SEPA direct debit. Invoices can be paid by bank transfer on the Business plan.

## Can I change plans?

Yes. Upgrades take effect immediately and are prorated. Downgrades take effect at the next renewal.`;
  expect(extractiveLead(faq, "Billing FAQ")).toBe("");
});

test("a page of several sections and no introduction has no lead: one section's sentence is no summary", () => {
  // Was led by "If the walk-in fridge fails, …", central by its word "fridge" alone.
  const handbook = `# Kitchen handbook

## Opening hours

Tuesday to Saturday 12:00–22:30. Sunday 12:00–16:00 (lunch only).

## Food safety

Fridges must hold 1–4 °C. Log the fridge temperatures at opening and closing.

## Equipment faults

If the walk-in fridge fails, move stock to the reach-in fridges and call CoolTech.`;
  expect(extractiveLead(handbook, "Kitchen handbook")).toBe("");
});
