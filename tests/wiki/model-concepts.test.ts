// With Ollama configured (the loopback stand-in), the model proposes a source's concepts as JSON and writes
// the page leads; the same merge rules apply, and concepts the text never names are dropped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let ollama: OllamaStandin;
let s: TestServer;
beforeAll(async () => {
  ollama = startOllamaStandin({
    reply: (body) => {
      const system = String(body.messages?.[0]?.content ?? "");
      const user = String(body.messages?.at(-1)?.content ?? "");
      if (system.includes("list the concepts")) {
        // A real model's answer shape, with one invented name the text never mentions.
        const names = [...user.matchAll(/\b(Nils Arden|Brightwater Dock|Harbour Board)\b/g)].map((m) => m[1]);
        return JSON.stringify({ concepts: [...new Set(names), "Atlantis"].map((name) => ({ name, aliases: name === "Nils Arden" ? ["Arden"] : [] })) });
      }
      // Synthesis: a lead sentence, then the section as given.
      const section = user.split("Source section:\n\n")[1] ?? "";
      return `In short: ${section.split(". ")[0]}.\n\n${section}`;
    },
  });
  s = await startTestServer({ BRAINBOX_OLLAMA_URL: ollama.url });
});
afterAll(async () => {
  await s.close();
  await ollama.stop();
});

test("the model's concepts become concept pages under the same rules; an ungrounded one is dropped", async () => {
  const brainId = await newBrain(s, "Docks");
  for (const [title, content] of [
    ["Dock works", "Nils Arden rebuilt Brightwater Dock in 1902. The Harbour Board paid for the new gates."],
    ["Arden's youth", "Arden grew up beside Brightwater Dock. Nils Arden later chaired the Harbour Board."],
  ]) {
    const { source } = await addText(s, brainId, title!, content!);
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  }
  expect(ollama.requests.some((r) => String(r.body?.messages?.[0]?.content).includes("list the concepts"))).toBe(true);
  const { pages } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=concept`), 200);
  const slugs = pages.map((p: any) => p.slug).sort();
  expect(slugs).toEqual(["brightwater-dock", "harbour-board", "nils-arden"]);
  expect(slugs).not.toContain("atlantis"); // the text never names it
  const arden = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/nils-arden`), 200)).page;
  expect(arden.markdown).toContain("grew up beside Brightwater Dock"); // "Arden" alone merged into Nils Arden
  const page = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/dock-works`), 200)).page;
  expect(page.markdown).toStartWith("In short: "); // the model wrote the lead
  expect(page.markdown).toContain("[[nils-arden|Nils Arden]]");
});
