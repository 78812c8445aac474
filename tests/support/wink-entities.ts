// wink-nlp's custom entities with the name and phrase patterns nlp.ts once taught it: the reference
// tests/wiki/tag-runs.test.ts compares the tag scan with. Run as its own process (texts as a JSON array on
// stdin, spans on stdout): the model's custom-entity data reads right only once a process, and the
// concept extraction in the test process has read it already.
const winkNLP = require("wink-nlp");
const nlp = winkNLP(require("wink-eng-lite-web-model"), ["sbd", "pos", "cer"]);
nlp.learnCustomEntities([
  { name: "proper", patterns: ["[PROPN] [ADP|CCONJ] [PROPN] [PROPN]", "[PROPN] [ADP] [PROPN]", "[PROPN] [PROPN] [PROPN] [PROPN]", "[PROPN] [PROPN] [PROPN]", "[PROPN] [PROPN]", "[PROPN]"] },
  { name: "phrase", patterns: ["[ADJ|NOUN] [NOUN] [NOUN]", "[ADJ|NOUN] [NOUN]"] },
]);
const texts: string[] = JSON.parse(await Bun.stdin.text());
const out = texts.map((text) => {
  const doc = nlp.readDoc(text);
  const spans: string[] = [];
  doc.customEntities().each((e: any) => {
    const [a, b] = e.out(nlp.its.span);
    spans.push(`${e.out(nlp.its.detail).type}:${a}-${b}`);
  });
  return { tags: doc.tokens().out(nlp.its.pos) as string[], spans };
});
process.stdout.write(JSON.stringify(out));

export {};
