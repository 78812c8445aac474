import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let a: string, b: string, c: string;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  [a, b, c] = [await newBrain(s, "Alpha"), await newBrain(s, "Beta"), await newBrain(s, "Gamma")];
});
afterAll(() => s.close());

const create = (json: unknown, key?: string) => s.api("/api/v1/brain-sets", { method: "POST", json, key });

describe("brain sets CRUD", () => {
  test("create, list, read, update, delete", async () => {
    const made = await expectJson(await create({ name: "Council", primaryBrainId: a, advisorBrainIds: [b] }), 201);
    expect(made.brainSet).toMatchObject({ name: "Council", primary: { id: a, name: "Alpha" }, advisors: [{ id: b, name: "Beta" }] });
    const id = made.brainSet.id;
    expect((await expectJson(await s.api("/api/v1/brain-sets"), 200)).brainSets.map((x: any) => x.id)).toContain(id);
    const updated = await expectJson(await s.api(`/api/v1/brain-sets/${id}`, { method: "PATCH", json: { advisorBrainIds: [c, b] } }), 200);
    expect(updated.brainSet.advisors.map((x: any) => x.id)).toEqual([c, b]);
    expect((await s.api(`/api/v1/brain-sets/${id}`, { method: "DELETE" })).status).toBe(204);
    await expectJson(await s.api(`/api/v1/brain-sets/${id}`), 404);
    // The brains stay.
    await expectJson(await s.api(`/api/v1/brains/${a}`), 200);
  });

  test("an inaccessible advisor or primary is 404; bad members are 422", async () => {
    const otherKey = await newAccountKey(s.ctx.db, "Other");
    const theirs = await newBrain(s, "Theirs", otherKey);
    const r1 = await expectJson(await create({ name: "X", primaryBrainId: a, advisorBrainIds: [theirs] }), 404);
    expect(r1.error.field).toBe("advisorBrainIds");
    const r2 = await expectJson(await create({ name: "X", primaryBrainId: theirs, advisorBrainIds: [a] }), 404);
    expect(r2.error.field).toBe("primaryBrainId");
    for (const [json, field] of [
      [{ name: "X", primaryBrainId: a, advisorBrainIds: [] }, "advisorBrainIds"],
      [{ name: "X", primaryBrainId: a, advisorBrainIds: [b, c, b] }, "advisorBrainIds"],
      [{ name: "X", primaryBrainId: a, advisorBrainIds: [a] }, "advisorBrainIds"],
      [{ name: "X", primaryBrainId: a, advisorBrainIds: ["1", "2", "3", "4", "5"] }, "advisorBrainIds"],
      [{ primaryBrainId: a, advisorBrainIds: [b] }, "name"],
    ] as const) {
      expect((await expectJson(await create(json), 422)).error.field).toBe(field);
    }
    // Someone else's set is 404 to them.
    const made = await expectJson(await create({ name: "Mine", primaryBrainId: a, advisorBrainIds: [b] }), 201);
    await expectJson(await s.api(`/api/v1/brain-sets/${made.brainSet.id}`, { key: otherKey }), 404);
  });
});
