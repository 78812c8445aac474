// Following a relation from a page to the next: the sentence of the page that says the relation ("… directed
// by Jean Grémillon"), and the page of the name it says it of. And the sentence of a last page that says the
// attribute asked ("He was born in Calgary").
import type { RetrievedPage } from "../../../retrieval";
import { holdsAnswerType } from "../answer-type";
import { stemSet } from "../sentences";
import { ATTRIBUTES, RELATION_CUES } from "../words/relations";
import { titledSex } from "../words/titles";
import { bareTitle, plain, type PageReader } from "./pages";
import { countryOf, lifeDate, namesIn } from "./values";

export interface Hop {
  sentence: string;
  /** The next page, or null when the sentence names someone the brain has no page of. */
  next: RetrievedPage | null;
  named: string;
  /** Said on the next page of the one before (follow's reverse). */
  reverse?: true;
}

/** Relations said of the second of two parents ("the son of Otto and Sophia": Sophia is the mother). */
const SECOND_NAMED = new Set(["mother"]);
/** The sex a relation is of, told by a name's title ("Princess Caroline" is a mother, not a father). */
const SEX_OF: Record<string, "female" | "male"> = { mother: "female", wife: "female", daughter: "female", sister: "female", father: "male", husband: "male", son: "male", brother: "male" };
const PARENTAGE = new Set(["son of", "daughter of", "child of", "born to"]);

/** A present-tense verb's past form, the way a page tells what was done ("plays" → "played"). */
const verbForms = (verb: string) => (/ed$/.test(verb) ? verb : verb.replace(/e?s$/, "").replace(/e$/, "") + "ed");

const cuesOf = (relation: string) => RELATION_CUES[relation] ?? [relation, `${relation}s`];

/** Where in `lower` a cue is said as words, or -1. */
function cueAt(lower: string, cue: string): number {
  const m = new RegExp(`(?<![\\p{L}])${cue.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "u").exec(lower);
  return m ? m.index : -1;
}

/** The relation said on `page`, and the page of whom it is said of (not one of `seen`). */
export async function follow(reader: PageReader, page: RetrievedPage, relation: string, seen: Set<number>, context: string, verb?: string): Promise<Hop | null> {
  const own = new Set(bareTitle(page.title).split(" "));
  let unpaged: Hop | null = null;
  // "the actress who played Thelma": the page says "played by …" or "… played Thelma".
  const cues = verb ? [...cuesOf(relation), verb, verbForms(verb)].filter((c, i, all) => c && all.indexOf(c) === i) : cuesOf(relation);
  for (const cue of cues) {
    for (const sentence of reader.sentences(page)) {
      const at = cueAt(sentence.toLowerCase(), cue);
      if (at < 0) continue;
      let candidates = namesIn(sentence).filter((n) => !plain(n.name).split(" ").every((w) => own.has(w)));
      if (candidates.length === 0) continue;
      // Names after the cue first, nearest first ("directed by X"); then before it, nearest first ("X directed …").
      candidates = [...candidates.filter((n) => n.at > at).sort((a, b) => a.at - b.at), ...candidates.filter((n) => n.at <= at).sort((a, b) => b.at - a.at)];
      if (SECOND_NAMED.has(relation) && PARENTAGE.has(cue)) {
        const and = sentence.toLowerCase().indexOf(" and ", at);
        if (and > 0) candidates = [...candidates.filter((n) => n.at > and), ...candidates.filter((n) => n.at <= and)];
      }
      const sex = SEX_OF[relation];
      // A name titled as the relation's sex first, one titled as the other's last.
      if (sex) candidates = [...candidates.filter((n) => titledSex(n.name) === sex), ...candidates.filter((n) => titledSex(n.name) === null), ...candidates.filter((n) => titledSex(n.name) !== null && titledSex(n.name) !== sex)];
      for (const c of candidates.slice(0, 3)) {
        const next = await reader.byName(c.name, `${context} ${sentence}`);
        if (next && !seen.has(next.pageId)) return { sentence, next, named: c.name };
      }
      unpaged ??= { sentence, next: null, named: candidates[0]!.name };
    }
  }
  return unpaged ?? (await reverse(reader, page, relation, seen));
}

/**
 * The relation said the other way, on the next page: "He composed the score of Men with Brooms" on the
 * composer's page, when the film's page does not name its composer. The page found is the next one; the
 * sentence is its own.
 */
async function reverse(reader: PageReader, page: RetrievedPage, relation: string, seen: Set<number>): Promise<Hop | null> {
  const title = bareTitle(page.title);
  if (title.length < 3) return null;
  const cues = cuesOf(relation).flatMap((c) => [c, ...REVERSE_CUES[relation] ?? []]);
  for (const other of await reader.search(`${relation} ${page.title}`)) {
    if (other.pageId === page.pageId || seen.has(other.pageId)) continue;
    for (const sentence of reader.sentences(other)) {
      if (!` ${plain(sentence)} `.includes(` ${title} `)) continue;
      const lower = sentence.toLowerCase();
      if (cues.some((c) => cueAt(lower, c) >= 0)) return { sentence, next: other, named: other.title, reverse: true };
    }
  }
  return null;
}

/** Words the next page says a relation with, of the page before: a composer "composed" or "scored" the film. */
const REVERSE_CUES: Record<string, readonly string[]> = {
  composer: ["composed", "scored", "music"],
  director: ["directed", "directing", "director"],
  founder: ["founded", "co-founded", "established", "founder"],
  author: ["wrote", "author"],
  performer: ["recorded", "performed", "released", "sang"],
  producer: ["produced", "producer"],
  father: ["son", "daughter", "children", "father"],
  mother: ["son", "daughter", "children", "mother"],
  spouse: ["married", "wife", "husband"],
  husband: ["married", "wife"],
  wife: ["married", "husband"],
};

/**
 * The sentence of `page` that says what is asked: a birth or death date as the page writes it, else the
 * attribute's or the relation's words with the kind asked for. `said` is false when no sentence says it and
 * the page's opening (who or what it is about) is given instead.
 */
export function answerSentence(reader: PageReader, page: RetrievedPage, asked: { attribute: string | null; relation: string | null; words: string[] }): { sentence: string; said: boolean } | null {
  const sentences = reader.sentences(page);
  if (sentences.length === 0) return null;
  const attribute = ATTRIBUTES.find((a) => a.name === asked.attribute);
  if (attribute?.name === "nationality") {
    const country = countryOf(sentences);
    return country ? { sentence: country.sentence, said: true } : { sentence: sentences[0]!, said: false };
  }
  if (attribute?.name === "birth date" || attribute?.name === "death date") {
    const life = lifeDate(sentences, attribute.name === "birth date" ? "birth" : "death");
    if (life) return { sentence: life.sentence, said: true };
  }
  const cues = attribute ? attribute.cues : asked.relation ? cuesOf(asked.relation) : [];
  const words = new Set(asked.words);
  let best: { sentence: string; score: number } | null = null;
  sentences.forEach((sentence, i) => {
    const lower = sentence.toLowerCase();
    const cued = cues.filter((c) => cueAt(lower, c) >= 0).length;
    const stems = stemSet(sentence);
    const worded = [...words].filter((w) => stems.has(w)).length;
    if (cued === 0 && (cues.length > 0 || worded === 0)) return;
    const typed = attribute?.type ? holdsAnswerType(sentence, attribute.type, new Set()) : asked.relation ? namesIn(sentence).length > 1 : true;
    // "born in Vancouver": a place said right after the cue says the asked place, not only a birth.
    const placed = attribute?.type === "place" && cues.some((c) => new RegExp(`(?<![\\p{L}])${c}\\s+(?:[^.;]{0,30}?\\s)?(?:in|at|near)\\s+\\p{Lu}`, "u").test(sentence));
    const score = 2 * cued + worded + (typed ? 1.5 : 0) + (placed ? 1 : 0) - i * 0.01;
    if (!best || score > best.score) best = { sentence, score };
  });
  const found = (best as { sentence: string } | null)?.sentence;
  return found ? { sentence: found, said: true } : { sentence: sentences[0]!, said: false };
}
