import { describe, expect, test } from "bun:test";
import { timeSlicer } from "../../src/lib/time-slice";

/** Whether a callback queued with setImmediate before `wait` ran by the time `wait` resolved (a turn passed). */
async function turnPassed(wait: () => Promise<void>): Promise<boolean> {
  let ran = false;
  setImmediate(() => (ran = true));
  await wait();
  const passed = ran;
  await new Promise((resolve) => setImmediate(resolve)); // let the probe run before the next one
  return passed;
}

describe("timeSlicer", () => {
  test("yields a turn of the event loop at the first call and once a slice is spent, not in between", async () => {
    const slice = timeSlicer(200);
    expect(await turnPassed(slice)).toBe(true);
    // Within the slice: no turn, however many items.
    for (let i = 0; i < 5; i++) expect(await turnPassed(slice)).toBe(false);
    const spent = performance.now();
    while (performance.now() - spent < 220); // the slice's time, spent without a turn
    expect(await turnPassed(slice)).toBe(true);
    expect(await turnPassed(slice)).toBe(false);
  });

  test("a slice of 0 yields at every call, as a turn per item did", async () => {
    const slice = timeSlicer(0);
    for (let i = 0; i < 3; i++) expect(await turnPassed(slice)).toBe(true);
  });
});
