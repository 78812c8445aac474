// `connector.run.finished` over real HTTP: a website connector's run on a loopback site ends, and the hook
// that takes the event receives it once, signed, with the run's status and counts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { waitFor } from "../support/wait";
import { createConnector, newBrain, syncAndWait } from "../connectors/helpers";
import { startSite, type Site } from "../connectors/site";
import { startReceiver, verify, type Receiver } from "./receiver";

let s: TestServer;
let site: Site;
let rx: Receiver;
beforeAll(async () => {
  site = startSite();
  rx = startReceiver();
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_JOB_RETRY_BASE_MS: "50", BRAINBOX_WEBHOOK_RETRY_BASE_MS: "50" });
});
afterAll(async () => {
  await s.close();
  site.stop();
  rx.stop();
});

test("a finished run is announced once, with its status and counts; a hook not taking the event gets nothing", async () => {
  site.pages.set("/kb/", { title: "Field notes", body: "Field notes of the estuary survey, kept by the survey team.", links: ["/kb/tides"] });
  site.pages.set("/kb/tides", { title: "Tides", body: "Spring tides at the weir reach four metres in March." });
  const brainId = await newBrain(s);
  const { secret } = await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["connector.run.finished"], brainIds: [brainId] } }), 201);
  await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: `${rx.url.replace(/\/hook$/, "")}/other`, events: ["source.removed"], brainIds: [brainId] } }), 201);
  const connector = await createConnector(s, brainId, { kind: "website", name: "Field notes", config: { startUrls: [`${site.url}/kb/`], maxDepth: 2 } });

  const run = await syncAndWait(s, brainId, connector.id);
  expect(run).toMatchObject({ status: "succeeded", counts: { added: 2 } });
  await waitFor(async () => rx.events("connector.run.finished").length === 1);

  const got = rx.received.find((r) => r.path === "/hook")!;
  const event = verify(secret, got);
  expect(event).toMatchObject({
    type: "connector.run.finished",
    data: { brainId, connectorId: connector.id, kind: "website", runId: run.id, status: "succeeded", counts: { added: 2, failed: 0 }, errors: [] },
  });
  expect(rx.received.filter((r) => r.path === "/other")).toEqual([]);

  // A second run is a second event (its own run id), never a repeat of the first.
  const again = await syncAndWait(s, brainId, connector.id);
  await waitFor(async () => rx.events("connector.run.finished").length === 2);
  expect(rx.events("connector.run.finished").map((e) => e.data.runId)).toEqual([run.id, again.id]);
});
