// Brain sets are shared like brains (issue 56): viewer asks and reads the set, editor changes its members,
// owner shares and deletes it; the members are resolved by the caller's own roles, so sharing a set never
// opens a brain the caller cannot read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { person, share, type Person } from "./support";

let s: TestServer;
let primary: string;
let advisor: string;
let setId: string;
let viewer: Person;
let editor: Person;
let stranger: Person;
beforeAll(async () => {
  s = await startTestServer();
  primary = await newBrain(s, "Primary");
  advisor = await newBrain(s, "Advisor");
  const { source } = await addText(s, primary, "Tides", "Tides are caused by the gravity of the moon and the sun pulling on the oceans.");
  await waitForSource(s, primary, source.id);
  setId = (await expectJson(await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Blend", primaryBrainId: primary, advisorBrainIds: [advisor] } }), 201)).brainSet.id;
  [viewer, editor, stranger] = await Promise.all([person(s, "Viewer"), person(s, "Editor"), person(s, "Stranger")]);
  // Both read the primary brain; only the editor reads the advisor.
  await share(s, primary, viewer.id, "viewer");
  await share(s, primary, editor.id, "viewer");
  await share(s, advisor, editor.id, "viewer");
});
afterAll(() => s.close());

const putSetShare = (grantee: string, role: string, key?: string) => s.api(`/api/v1/brain-sets/${setId}/shares/accounts/${grantee}`, { method: "PUT", json: { role }, key });

describe("brain set shares", () => {
  test("the owner shares the set; the shares list shows who has which role", async () => {
    await expectJson(await putSetShare(viewer.id, "viewer"), 200);
    await expectJson(await putSetShare(editor.id, "editor"), 200);
    const { shares } = await expectJson(await s.api(`/api/v1/brain-sets/${setId}/shares`), 200);
    expect(shares.map((x: any) => x.role).sort()).toEqual(["editor", "owner", "viewer"]);
  });

  test("a viewer reads and asks the set, with only the member brains they can read; writes are 403", async () => {
    const { brainSet } = await expectJson(await s.api(`/api/v1/brain-sets/${setId}`, { key: viewer.key }), 200);
    expect(brainSet).toMatchObject({ role: "viewer", primary: { id: primary }, advisors: [] });
    const answer = await expectJson(await s.api(`/api/v1/brain-sets/${setId}/ask`, { method: "POST", json: { question: "What causes tides?" }, key: viewer.key }), 200);
    expect(answer.citations.every((c: any) => c.brain.id === primary)).toBe(true);
    for (const [method, path, json] of [
      ["PATCH", `/api/v1/brain-sets/${setId}`, { name: "Mine" }],
      ["DELETE", `/api/v1/brain-sets/${setId}`],
      ["GET", `/api/v1/brain-sets/${setId}/shares`],
      ["PUT", `/api/v1/brain-sets/${setId}/shares/accounts/${stranger.id}`, { role: "viewer" }],
    ] as Array<[string, string, unknown?]>)
      expect((await expectJson(await s.api(path, { method, key: viewer.key, ...(json ? { json } : {}) }), 403)).error.code).toBe("forbidden");
    const shared = await expectJson(await s.api("/api/v1/shared-with-me", { key: viewer.key }), 200);
    expect(shared.brainSets.map((x: any) => x.id)).toEqual([setId]);
  });

  test("an editor changes the set's name but cannot delete it; a stranger gets 404", async () => {
    const { brainSet } = await expectJson(await s.api(`/api/v1/brain-sets/${setId}`, { method: "PATCH", json: { name: "Renamed" }, key: editor.key }), 200);
    expect(brainSet).toMatchObject({ name: "Renamed", role: "editor", advisors: [{ id: advisor }] });
    expect((await expectJson(await s.api(`/api/v1/brain-sets/${setId}`, { method: "DELETE", key: editor.key }), 403)).error.code).toBe("forbidden");
    for (const [method, path] of [
      ["GET", `/api/v1/brain-sets/${setId}`],
      ["GET", `/api/v1/brain-sets/${setId}/asks`],
      ["DELETE", `/api/v1/brain-sets/${setId}`],
      ["GET", `/api/v1/brain-sets/${setId}/shares`],
    ])
      expect((await expectJson(await s.api(path!, { method, key: stranger.key }), 404)).error.code).toBe("not_found");
    expect((await expectJson(await s.api(`/api/v1/brain-sets/${setId}/ask`, { method: "POST", json: { question: "Tides?" }, key: stranger.key }), 404)).error.code).toBe("not_found");
  });

  test("the last owner cannot leave the set (409); the owner deletes it", async () => {
    const owner = (await expectJson(await s.api("/api/v1/account"), 200)).account.id;
    expect((await expectJson(await s.api(`/api/v1/brain-sets/${setId}/shares/accounts/${owner}`, { method: "DELETE" }), 409)).error.code).toBe("conflict");
    await expectJson(await s.api(`/api/v1/brain-sets/${setId}`, { method: "DELETE" }), 204);
    await expectJson(await s.api(`/api/v1/brain-sets/${setId}`, { key: viewer.key }), 404);
  });
});
