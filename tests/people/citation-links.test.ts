// A citation's url opened by a browser (Accept: text/html, no Authorization) goes to the admin page's page
// view (which signs the person in when needed); API clients get exactly today's answers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertPages } from "../support/pages";
import { newBrain } from "../support/sources";
import { expectJson, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let brainId: string;
let url: string;
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Handbook");
  await insertPages(s.ctx.db, brainId, [{ slug: "on-call", title: "On call", markdown: "# On call\n\nThe on-call rota changes every Monday." }]);
  const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "When does the on-call rota change?" } }), 200);
  url = body.citations[0]?.url;
});
afterAll(() => s?.close());

describe("a citation url", () => {
  test("is the page's absolute API address (from a real answer's citations)", () => {
    expect(url).toBe(`${s.url}/api/v1/brains/${brainId}/pages/on-call`);
  });

  test("opened by a browser: 303 to the admin page's view of the page (both surfaces), whatever the cookie", async () => {
    for (const path of [url, url.replace("/api/v1/", "/api/")]) {
      const res = await fetch(path, { headers: { accept: BROWSER_ACCEPT }, redirect: "manual" });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/#/brains/${brainId}/wiki/on-call`);
    }
    const page = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toStartWith("text/html");
  });

  test("API clients get exactly today's answers: JSON with a key, 401 JSON without, HTML with a key and Accept html", async () => {
    const withKey = await expectJson(await s.api(new URL(url).pathname), 200);
    expect(withKey.page.slug).toBe("on-call");
    for (const headers of [{}, { accept: "application/json" }, { accept: "*/*" }] as Record<string, string>[]) {
      const res = await fetch(url, { headers, redirect: "manual" });
      expect((await expectJson(res, 401)).error.code).toBe("unauthorized");
    }
    const html = await s.api(new URL(url).pathname, { headers: { accept: BROWSER_ACCEPT } });
    expect(html.status).toBe(200);
    expect(await html.text()).toContain("The on-call rota changes every Monday.");
  });

  test("other paths and methods are untouched", async () => {
    expect((await fetch(`${s.url}/api/v1/brains/${brainId}/pages`, { headers: { accept: BROWSER_ACCEPT }, redirect: "manual" })).status).toBe(401);
    expect((await fetch(url, { method: "PUT", headers: { accept: BROWSER_ACCEPT }, redirect: "manual" })).status).toBe(401);
  });
});
