// The audit screen's action filter offers exactly the actions the server knows (src/modules/audit/actions.ts):
// a new kind of event must appear in the filter, and the filter must never offer one the server refuses (422).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { AUDIT_ACTIONS } from "../../src/modules/audit/actions";

describe("the audit screen's action filter", () => {
  test("lists every audit action, and only those", async () => {
    const source = await Bun.file(join(import.meta.dir, "..", "..", "web", "screens", "audit.js")).text();
    const list = source.match(/const ACTIONS = \[([\s\S]*?)\];/)![1]!;
    const offered = [...list.matchAll(/"([a-z_.]+)"/g)].map((m) => m[1]);
    expect([...offered].sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(offered).size).toBe(offered.length);
  });
});
