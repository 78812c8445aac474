/**
 * How long a wait polls before it gives up: the bound of a test that would never finish, not a speed check (a
 * loaded shared machine can run many times slower than usual). Below the tiers' per-test timeout (package.json).
 */
export const WAIT_BOUND_MS = 240_000;

/** Polls `check` until it holds (the job loop works in the background); throws after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = WAIT_BOUND_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await Bun.sleep(50);
  }
  throw new Error("condition not met in time");
}
