// Shared steps of the connector tests: create a connector, sync it, wait for its run to end.
import { expect } from "bun:test";
import { expectJson, type TestServer } from "../support/server";
import { waitFor } from "../support/wait";

export { newBrain } from "../support/sources";

export async function createConnector(server: TestServer, brainId: string, body: Record<string, unknown>) {
  const res = await server.api(`/api/v1/brains/${brainId}/connectors`, { method: "POST", json: body });
  return (await expectJson(res, 201)).connector;
}

export async function sync(server: TestServer, brainId: string, connectorId: string) {
  return (await expectJson(await server.api(`/api/v1/brains/${brainId}/connectors/${connectorId}/sync`, { method: "POST" }), 202)).run;
}

export async function runs(server: TestServer, brainId: string, connectorId: string): Promise<any[]> {
  return (await expectJson(await server.api(`/api/v1/brains/${brainId}/connectors/${connectorId}/runs`), 200)).runs;
}

/** Waits until the run is over; returns it. */
export async function finished(server: TestServer, brainId: string, connectorId: string, runId: string) {
  let run: any;
  await waitFor(async () => {
    run = (await runs(server, brainId, connectorId)).find((r) => r.id === runId);
    return run && ["succeeded", "failed", "cancelled"].includes(run.status);
  });
  return run;
}

export async function syncAndWait(server: TestServer, brainId: string, connectorId: string) {
  const run = await sync(server, brainId, connectorId);
  return finished(server, brainId, connectorId, run.id);
}

export async function sourcesOf(server: TestServer, brainId: string): Promise<any[]> {
  return (await expectJson(await server.api(`/api/v1/brains/${brainId}/sources`), 200)).sources;
}

/** Waits until every source of the brain is ready (or failed). */
export async function allProcessed(server: TestServer, brainId: string) {
  await waitFor(async () => (await sourcesOf(server, brainId)).every((s) => s.status === "ready" || s.status === "failed"));
  const all = await sourcesOf(server, brainId);
  expect(all.every((s) => s.status === "ready")).toBe(true);
  return all;
}
