// Bridge: "Where was the composer of film Men With Brooms born?" names a page (the film's) and a chain of
// relations from it. Each relation is followed to the next page (the composer's); the answer is the sentence
// of the last page that says what is asked ("… was born in Calgary"), then the sentences that led there, each
// page cited. A chain whose next page the brain lacks is thin (rule thin.incomplete-chain): the first hop's
// sentence does not answer the question.
import { wordsOf } from "../../../retrieval";
import type { QuestionFrame, RelationMention } from "../frame";
import { ruleOn, RULES } from "../rules";
import { stem } from "../sentences";
import { answerSentence, follow } from "./follow";
import { bareTitle, plain, type PageReader } from "./pages";
import type { Fact, Shaped } from "./shaped";
import { namesIn } from "./values";

/** The question's words that ask rather than say (beyond stopwords): no part of what the last page must say. */
const ASKING = new Set(["what", "who", "whom", "whose", "where", "when", "which", "how", "is", "was", "are", "were", "did", "does", "do", "the", "of", "film", "song", "album", "book"].map(stem));

export async function bridgeAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  const anchor = await anchorOf(frame, reader);
  if (!anchor) return null;
  const lower = frame.question.toLowerCase();
  const anchorAt = anchorPosition(lower, anchor.title);
  // The relation nearest the anchor is the first hop: "the mother of the director of X" is X's director's mother.
  const outside = frame.relations.filter((r) => !bareTitle(anchor.title).split(" ").includes(r.word));
  const ordered = [...outside].sort((a, b) => Math.abs(a.at - anchorAt) - Math.abs(b.at - anchorAt) || a.seq - b.seq);
  const hops = frame.attribute ? ordered : ordered.slice(0, -1);
  const last: RelationMention | undefined = frame.attribute ? undefined : ordered.at(-1);
  if (hops.length === 0) return null;
  const facts: Fact[] = [];
  const seen = new Set([anchor.pageId]);
  let page = anchor;
  for (const relation of hops) {
    const hop = await follow(reader, page, relation.word, seen, frame.question, relation.verb);
    if (!hop) return null; // the page does not say the relation: not a chain these pages hold
    // Thin only when the relation is one the question surely asks (a relation word, not any noun before "of").
    if (!hop.next) return ruleOn(RULES.incompleteChainThin) && !relation.generic ? { kind: "thin", reason: `no page of ${hop.named}` } : null;
    // Said the other way ("He composed the score of X" on the composer's page): the page before is cited by its opening.
    facts.push(hop.reverse ? { text: reader.sentences(page)[0] ?? page.title, page } : { text: hop.sentence, page });
    if (hop.reverse) facts.push({ text: hop.sentence, page: hop.next });
    seen.add(hop.next.pageId);
    page = hop.next;
  }
  const used = new Set([...wordsOf(anchor.title), ...frame.relations.map((r) => r.word)].map(stem));
  const words = wordsOf(frame.question)
    .map(stem)
    .filter((w) => !used.has(w) && !ASKING.has(w));
  const answer = answerSentence(reader, page, { attribute: frame.attribute, relation: last?.word ?? null, words });
  if (!answer) return ruleOn(RULES.incompleteChainThin) ? { kind: "thin", reason: `${page.title} is empty` } : null;
  // The last page not saying what is asked is said so: what it does say is who the chain led to.
  const lead = answer.said ? null : `The pages do not say this of ${page.title}; they say:`;
  return { kind: "answer", lead, facts: [{ text: answer.sentence, page }, ...facts] };
}

/** The page the chain starts from: the longest page title the question writes, else a name it writes that has a page. */
async function anchorOf(frame: QuestionFrame, reader: PageReader) {
  const titled = reader.titledIn(frame.question);
  if (titled[0]) return titled[0];
  for (const { name } of namesIn(frame.question).sort((a, b) => b.name.length - a.name.length)) {
    const page = await reader.byName(name, frame.question);
    if (page) return page;
  }
  return null;
}

/** Where the question writes the anchor's title (its first word), lower-case. */
function anchorPosition(lower: string, title: string): number {
  const first = plain(title).split(" ")[0] ?? "";
  const at = lower.search(new RegExp(`\\b${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  return at >= 0 ? at : lower.length;
}
