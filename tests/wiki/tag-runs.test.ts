// Names and noun phrases as runs of part-of-speech tags (src/concepts/tag-runs.ts): the spans wink-nlp's
// custom entities found with the patterns nlp.ts taught it, found by a scan instead.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tagRuns } from "../../src/concepts/tag-runs";
import { syntheticAbstracts } from "../../scripts/synthetic-abstracts";

const runsOf = (tags: string) => tagRuns(tags.split(" ")).map((r) => `${r.type}:${r.start}-${r.end}`);

describe("the longest pattern at each token, then on after it", () => {
  test("names: proper nouns, joined by one 'of' / 'and' between longer names", () => {
    expect(runsOf("PROPN ADP PROPN PUNCT")).toEqual(["proper:0-2"]); // University of Paris
    expect(runsOf("PROPN ADP PROPN PROPN")).toEqual(["proper:0-3"]); // Bank of New England
    expect(runsOf("PROPN CCONJ PROPN PROPN")).toEqual(["proper:0-3"]); // Marks and Spencer Group
    // "and" joins only a longer name: "Alice and Bob" is two names.
    expect(runsOf("PROPN CCONJ PROPN VERB")).toEqual(["proper:0-0", "proper:2-2"]);
    // At most four tokens: a fifth proper noun starts the next name.
    expect(runsOf("PROPN PROPN PROPN PROPN PROPN")).toEqual(["proper:0-3", "proper:4-4"]);
    expect(runsOf("DET PROPN PROPN VERB")).toEqual(["proper:1-2"]);
  });

  test("phrases: an adjective or noun before one or two nouns", () => {
    expect(runsOf("DET ADJ NOUN VERB")).toEqual(["phrase:1-2"]); // the steam turbine
    expect(runsOf("NOUN NOUN NOUN NOUN")).toEqual(["phrase:0-2"]); // then a noun alone is no phrase
    expect(runsOf("ADJ ADJ NOUN")).toEqual(["phrase:1-2"]);
    expect(runsOf("NOUN VERB NOUN")).toEqual([]);
    expect(runsOf("")).toEqual([]);
  });
});

test("the same spans as wink-nlp's custom entities with the patterns it was taught, on prose, lists, tables and line breaks", () => {
  const texts = [
    ...syntheticAbstracts(11, 150).documents.map((d) => d.content),
    "Maria Okafor\nLeads the platform group.\n\nThe Bank of England and Wales met the Port Commission of Kellan Point in May.",
    "Harbour Light\nKellan Point Museum\nThomas Wray\n\nSteam turbine engine room;  Data Engineer;  Tomas Varga",
    "Alice and Bob and Carol Ann Smith Jones went to New York City Hall on the harbour town tram depot line.",
  ];
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../support/wink-entities.ts")], { stdin: Buffer.from(JSON.stringify(texts)) });
  expect(run.exitCode).toBe(0);
  const reference: { tags: string[]; spans: string[] }[] = JSON.parse(run.stdout.toString());
  expect(reference).toHaveLength(texts.length);
  for (const { tags, spans } of reference) expect(tagRuns(tags).map((r) => `${r.type}:${r.start}-${r.end}`)).toEqual(spans);
  expect(reference.flatMap((r) => r.spans).length).toBeGreaterThan(1000);
});
