// Concept pages for names in other scripts. Without a model the English NLP finds no concepts in Cyrillic,
// CJK or Arabic text: fewer concepts, never junk pages. With Ollama (the loopback stand-in) the model's
// Cyrillic and CJK names become concept pages under the same merge rules, with slugs in their own script,
// reachable over HTTP; one-letter names, numbers and ungrounded names are still dropped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const SOURCES = [
  ["Детство композитора", "Пётр Чайковский родился в Воткинске. Отец Чайковский служил на заводе. Воткинск стоит на реке."],
  ["Консерватория", "Пётр Чайковский учился в Санкт-Петербурге. Потом Чайковский преподавал в Москве."],
  ["塔の歴史", "東京タワー は 1958年 に 完成した。 東京 の 名所 である。"],
  ["夜景", "東京タワー の 夜景 は 美しい。 東京 で 人気 が ある。"],
];

async function ingestAll(s: TestServer, brainId: string) {
  for (const [title, content] of SOURCES) {
    const { source } = await addText(s, brainId, title!, content!);
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  }
}
const conceptSlugs = async (s: TestServer, brainId: string) =>
  (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=concept&limit=200`), 200)).pages.map((p: any) => p.slug).sort();

describe("without a model", () => {
  let s: TestServer;
  beforeAll(async () => (s = await startTestServer()));
  afterAll(() => s.close());

  test("non-Latin text gets its source pages and no junk concept pages", async () => {
    const brainId = await newBrain(s, "Без модели");
    await ingestAll(s, brainId);
    expect(await conceptSlugs(s, brainId)).toEqual([]);
    const { pages } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages`), 200);
    expect(pages.map((p: any) => p.slug).sort()).toEqual(["консерватория", "детство-композитора", "塔の歴史", "夜景"].sort());
  });
});

describe("with Ollama", () => {
  let ollama: OllamaStandin;
  let s: TestServer;
  beforeAll(async () => {
    ollama = startOllamaStandin({
      reply: (body) => {
        const system = String(body.messages?.[0]?.content ?? "");
        const user = String(body.messages?.at(-1)?.content ?? "");
        if (system.includes("list the concepts")) {
          // What a model might propose: real names, an alias, and junk (a letter, a year, a name not in the text).
          const names = [...user.matchAll(/(Пётр Чайковский|東京タワー|東京|Воткинск|남산타워)/g)].map((m) => m[1]);
          const concepts = [...new Set(names)].map((name) => ({ name, aliases: name === "Пётр Чайковский" ? ["Чайковский"] : [] }));
          return JSON.stringify({ concepts: [...concepts, { name: "Я" }, { name: "1958" }, { name: "Атлантида" }] });
        }
        const section = user.split("Source section:\n\n")[1] ?? "";
        return section;
      },
    });
    s = await startTestServer({ BRAINBOX_OLLAMA_URL: ollama.url });
  });
  afterAll(async () => {
    await s.close();
    await ollama.stop();
  });

  test("the model's Cyrillic and CJK names become concept pages with slugs in their script; junk is dropped", async () => {
    const brainId = await newBrain(s, "С моделью");
    await ingestAll(s, brainId);
    const slugs = await conceptSlugs(s, brainId);
    expect(slugs).toEqual(expect.arrayContaining(["пётр-чайковский", "東京タワー"]));
    for (const junk of ["я", "1958", "атлантида"]) expect(slugs).not.toContain(junk);
    const page = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${encodeURIComponent("пётр-чайковский")}`), 200)).page;
    expect(page).toMatchObject({ kind: "concept", title: "Пётр Чайковский" });
    // "Чайковский" alone merged into the concept; both source pages point at it.
    expect(page.markdown).toContain("Отец Чайковский служил на заводе");
    expect(page.backlinks).toEqual(expect.arrayContaining(["детство-композитора", "консерватория"]));
    const source = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${encodeURIComponent("детство-композитора")}`), 200)).page;
    expect(source.links).toContain("пётр-чайковский");
    expect(source.html).toContain(`pages/${encodeURIComponent("пётр-чайковский")}"`);
    const graph = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?around=${encodeURIComponent("東京タワー")}`), 200);
    expect(graph.nodes.map((n: any) => n.slug)).toEqual(expect.arrayContaining(["東京タワー", "塔の歴史", "夜景"]));
  });

  test("names in run-on Japanese and in Korean with particles are found and linked (no spaces around them)", async () => {
    const brainId = await newBrain(s, "続けて書く");
    for (const [title, content] of [
      ["東京の塔", "東京タワーは1958年に完成した。東京タワーの高さは333メートルである。"],
      ["東京の夜", "夜の東京タワーはとても美しい。"],
      ["서울 여행", "우리는 남산타워에서 서울을 내려다보았다."],
      ["서울의 밤", "밤의 남산타워는 아름답다."],
    ]) {
      const { source } = await addText(s, brainId, title!, content!);
      expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
    }
    const slugs = await conceptSlugs(s, brainId);
    expect(slugs).toEqual(expect.arrayContaining(["東京タワー", "남산타워"]));
    const tower = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${encodeURIComponent("東京タワー")}`), 200)).page;
    expect(tower.markdown).toContain("東京タワーの高さは333メートルである。"); // its own sentence, split at 。
    expect(tower.backlinks).toEqual(expect.arrayContaining(["東京の塔", "東京の夜"]));
    const night = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${encodeURIComponent("서울의-밤")}`), 200)).page;
    expect(night.links).toContain("남산타워");
    expect(night.markdown).toContain("[[남산타워|남산타워]]는");
  });
});

