// An API's reference, as developers ask it: "how do I <action> …", limits in characters. Asked over real
// HTTP; the pages are written by the test and answers are checked for the sentence they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const SOURCES: Record<string, string> = {
  Authentication: `# Authentication

Every request needs an API key in the Authorization header. Keys are created in the dashboard under Developers > API keys. Keys do not expire, but you can roll a key at any time; the old key keeps working for 24 hours after a roll.`,
  Idempotency: `# Idempotency

POST requests accept an Idempotency-Key header. If a request with the same key arrives again within 24 hours, the API returns the first result. Keys can be up to 255 characters; we recommend a UUID v4.`,
  Errors: `# Errors

The API uses conventional HTTP status codes. A 401 means the API key is missing, revoked or wrong.`,
  Overview: `# Overview

Payments from your shop go through Brightpay. Brightpay is a payment platform for online shops in Europe.`,
  Orders: `# Orders

POST /v1/orders/{id}/cancel cancels an order that has not shipped. A shipped order cannot be cancelled; create a return instead.`,
};

export const API_REFERENCE_TABLE: AnswerTable = {
  brain: "API reference",
  pages: SOURCES,
  cases: [
    { name: "'how do I roll an API key?' is answered by the sentence that rolls one, not by those naming API keys", question: "How do I roll an API key?", excludes: ["created in the dashboard"], startsWith: "Keys do not expire, but you can roll a key at any time", thin: false },
    { name: "'how long can a key be?' is answered by a length in characters", question: "How long can an idempotency key be?", contains: ["Keys can be up to 255 characters"], thin: false },
    { name: "British doubled l says the word: 'cancelled' is cancel, as 'canceled' is", question: "How do I cancel an order?", contains: ["POST /v1/orders/{id}/cancel cancels an order that has not shipped.", "A shipped order cannot be cancelled; create a return instead."], thin: false },
    { name: "'what is X?' is answered by the sentence defining X first", question: "What is Brightpay?", excludes: ["go through Brightpay"], startsWith: "Brightpay is a payment platform for online shops in Europe.", thin: false },
  ],
};
