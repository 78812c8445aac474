import { expect, test } from "bun:test";
import { MemoryNonceLedger } from "../../src/pay/nonce-ledger.ts";

const nonce = `0x${"ab".repeat(32)}`;

test("reserve has exactly one winner, even concurrently and across hex case", async () => {
  const ledger = new MemoryNonceLedger();
  const wins = await Promise.all([ledger.reserve(nonce, "0xA"), ledger.reserve(nonce, "0xA"), ledger.reserve(nonce.toUpperCase().replace("0X", "0x"), "0xA")]);
  expect(wins.filter(Boolean)).toHaveLength(1);
});

test("release frees a reservation but never a settled nonce", async () => {
  const ledger = new MemoryNonceLedger();
  expect(await ledger.reserve(nonce, "0xA")).toBe(true);
  await ledger.release(nonce);
  expect(await ledger.reserve(nonce, "0xA")).toBe(true);
  await ledger.markSettled(nonce, "0xtx");
  await ledger.release(nonce);
  expect(await ledger.reserve(nonce, "0xA")).toBe(false);
  expect(ledger.lookup(nonce)).toEqual({ payer: "0xa", state: "settled", tx: "0xtx" });
});
