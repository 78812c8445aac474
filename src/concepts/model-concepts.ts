// With Ollama: the model proposes a source's concepts as JSON; each is kept only where the text names it
// (grounding), and then goes through the same keys, aliases and merge as the NLP's concepts.
import type { Generator } from "../ai/generator";
import { MAX_CONCEPTS_PER_SOURCE, MAX_MENTIONS_PER_SOURCE, proseOf, type ExtractedConcept, type PageText } from "./extract";
import { cleanSurface, conceptKey, personSurnameAlias } from "./keys";
import { CELL_SEPARATOR } from "./nlp";
import { escapeRegExp } from "../lib/regexp";
import { mentionSource } from "../links/surface-pattern";

const SYSTEM = [
  "You list the concepts of a document for a wiki: people, places, organizations and recurring ideas that deserve a page.",
  'Answer with JSON only: {"concepts":[{"name":"Marie Curie","aliases":["Curie"],"type":"person"}]}.',
  "Use names exactly as the document writes them. At most 20 concepts. No dates, numbers or generic words.",
].join(" ");
const PROMPT_CHARS = 8000;


/** The model's concepts, grounded in the pages; null when the model fails or answers no usable JSON. */
export async function proposeConcepts(generator: Generator, pages: PageText[], docTitle: string, signal: AbortSignal): Promise<ExtractedConcept[] | null> {
  // (A row's cells as "a; b", not with the tagger's cell mark.)
  const prose = pages.map((p) => ({ slug: p.slug, text: proseOf(p.markdown).replaceAll(CELL_SEPARATOR, "; ") }));
  const reply = await generator.chat(
    [
      { role: "system", content: SYSTEM },
      { role: "user", content: `Title: ${docTitle}\n\n${prose.map((p) => p.text).join("\n\n").slice(0, PROMPT_CHARS)}` },
    ],
    { signal, temperature: 0 },
  );
  const proposed = parseConcepts(reply);
  if (!proposed) return null;
  const sentencesByPage = prose.map((p) => ({ slug: p.slug, sentences: p.text.split(/(?<=[.!?])\s+|(?<=[。！？])/).map((s) => s.trim()).filter(Boolean) }));
  const out: ExtractedConcept[] = [];
  for (const item of proposed.slice(0, MAX_CONCEPTS_PER_SOURCE)) {
    const name = cleanSurface(item.name);
    const kind = /^\p{Lu}/u.test(name) ? "proper" : "phrase";
    const key = conceptKey(name, kind);
    if (!key || out.some((c) => c.key === key)) continue;
    const surfaces = [...new Set([name, ...item.aliases.map(cleanSurface)].filter((s) => s.length >= 2))].sort((a, b) => b.length - a.length);
    const concept: ExtractedConcept = { key, title: name, kind, aliasKeys: [], surfaces, salience: 0, mentions: [] };
    for (const alias of surfaces.slice(1)) {
      const aliasKey = conceptKey(alias, kind);
      if (aliasKey && aliasKey !== key) concept.aliasKeys.push(aliasKey);
    }
    const surname = kind === "proper" ? personSurnameAlias(name) : null;
    if (surname && surname !== key && !concept.aliasKeys.includes(surname)) concept.aliasKeys.push(surname);
    const pattern = new RegExp(surfaces.map((surface) => mentionSource(surface, escapeRegExp(surface))).join("|"), "iu");
    for (const page of sentencesByPage) {
      for (const sentence of page.sentences) {
        const hit = pattern.exec(sentence);
        if (!hit) continue;
        concept.salience += 1;
        if (concept.mentions.length < MAX_MENTIONS_PER_SOURCE) concept.mentions.push({ pageSlug: page.slug, surface: hit[0], sentence: sentence.slice(0, 400) });
      }
    }
    if (concept.mentions.length > 0) out.push(concept); // a concept the text never names is not grounded
  }
  return out.sort((a, b) => b.salience - a.salience);
}

function parseConcepts(reply: string): { name: string; aliases: string[] }[] | null {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const json = JSON.parse(reply.slice(start, end + 1)) as { concepts?: unknown };
    if (!Array.isArray(json.concepts)) return null;
    return json.concepts.flatMap((c: any) =>
      c && typeof c.name === "string" && c.name.trim()
        ? [{ name: c.name.slice(0, 120), aliases: Array.isArray(c.aliases) ? c.aliases.filter((a: unknown) => typeof a === "string").slice(0, 5) : [] }]
        : [],
    );
  } catch {
    return null;
  }
}
