// The sign-in throttle on a clock of its own: free failures, then a wait that doubles per failure, per
// (email, address) and per address; another address is never slowed; the right password resets the pair.
import { describe, expect, test } from "bun:test";
import { signInThrottle } from "../../src/modules/people/throttle";

function rig(free = 3) {
  let now = 1_000_000;
  const throttle = signInThrottle(free, () => now);
  return { throttle, advance: (ms: number) => (now += ms) };
}

describe("signInThrottle", () => {
  test("free failures pass; then each further failure doubles the wait (1, 2, 4, 8 s)", () => {
    const { throttle, advance } = rig(3);
    for (let i = 0; i < 3; i++) {
      expect(throttle.waitSeconds("a@x.io", "10.0.0.1")).toBe(0);
      throttle.failed("a@x.io", "10.0.0.1");
    }
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(throttle.waitSeconds("a@x.io", "10.0.0.1")).toBe(0);
      throttle.failed("a@x.io", "10.0.0.1");
      const wait = throttle.waitSeconds("a@x.io", "10.0.0.1");
      waits.push(wait);
      advance(wait * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
  });

  test("the wait is capped at 15 minutes", () => {
    const { throttle } = rig(1);
    for (let i = 0; i < 60; i++) throttle.failed("a@x.io", "10.0.0.1");
    expect(throttle.waitSeconds("a@x.io", "10.0.0.1")).toBe(15 * 60);
  });

  test("the same email from another address is untouched (no lockout of the owner)", () => {
    const { throttle } = rig(2);
    for (let i = 0; i < 10; i++) throttle.failed("owner@x.io", "203.0.113.9");
    expect(throttle.waitSeconds("owner@x.io", "203.0.113.9")).toBeGreaterThan(0);
    expect(throttle.waitSeconds("owner@x.io", "198.51.100.7")).toBe(0);
  });

  test("one address trying many emails is slowed after 4x the free failures", () => {
    const { throttle } = rig(2);
    for (let i = 0; i < 8; i++) throttle.failed(`p${i}@x.io`, "203.0.113.9");
    expect(throttle.waitSeconds("fresh@x.io", "203.0.113.9")).toBe(0);
    throttle.failed("p9@x.io", "203.0.113.9");
    expect(throttle.waitSeconds("fresh@x.io", "203.0.113.9")).toBe(1);
    expect(throttle.waitSeconds("fresh@x.io", "198.51.100.7")).toBe(0);
  });

  test("the right password starts the pair over; a quiet hour forgets everything", () => {
    const { throttle, advance } = rig(1);
    throttle.failed("a@x.io", "10.0.0.1");
    throttle.failed("a@x.io", "10.0.0.1");
    expect(throttle.waitSeconds("a@x.io", "10.0.0.1")).toBe(1);
    throttle.succeeded("a@x.io", "10.0.0.1");
    expect(throttle.waitSeconds("a@x.io", "10.0.0.1")).toBe(0);
    for (let i = 0; i < 5; i++) throttle.failed("b@x.io", "10.0.0.2");
    advance(61 * 60_000);
    expect(throttle.waitSeconds("b@x.io", "10.0.0.2")).toBe(0);
    throttle.failed("b@x.io", "10.0.0.2");
    expect(throttle.waitSeconds("b@x.io", "10.0.0.2")).toBe(0);
  });
});
