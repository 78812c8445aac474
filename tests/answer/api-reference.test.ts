// An API's reference, as developers ask it: "how do I <action> …", limits in characters. Asked over real
// HTTP; the pages are written by the test and answers are checked for the sentence they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const SOURCES: Record<string, string> = {
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

const ask = brainOf("API reference", SOURCES);

test("'how do I roll an API key?' is answered by the sentence that rolls one, not by those naming API keys", async () => {
  const body = await ask("How do I roll an API key?");
  expect(body.thin).toBe(false);
  expect(body.answer, body.answer).toStartWith("Keys do not expire, but you can roll a key at any time");
  expect(body.answer).not.toContain("created in the dashboard");
});

test("'how long can a key be?' is answered by a length in characters", async () => {
  const body = await ask("How long can an idempotency key be?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Keys can be up to 255 characters");
});

test("British doubled l says the word: 'cancelled' is cancel, as 'canceled' is", async () => {
  const body = await ask("How do I cancel an order?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("POST /v1/orders/{id}/cancel cancels an order that has not shipped.");
  // It says "cancelled", which is the action asked for: kept with the answer.
  expect(body.answer).toContain("A shipped order cannot be cancelled; create a return instead.");
});

test("'what is X?' is answered by the sentence defining X first", async () => {
  const body = await ask("What is Brightpay?");
  expect(body.thin).toBe(false);
  expect(body.answer).toStartWith("Brightpay is a payment platform for online shops in Europe.");
  expect(body.answer).not.toContain("go through Brightpay");
});
