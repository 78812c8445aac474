// Names a question asks about that none of the retrieved pages says: "Is there a GraphQL API?" of an API
// reference that never writes "GraphQL". The pages found then only share the question's other words, and an
// extractive answer quoting them reads as if it answered; it is said first that the brain does not mention
// the name (a search engine's "Missing: graphql"). Not `thin`: a question often names what its brain takes
// for granted ("How many vacation days do Acme employees get?" of a handbook that never says "Acme").
import { STOPWORDS, termVariants, type RetrievedPage, type TermStats } from "../../retrieval";
import { stem } from "./sentences";

/** A word of the question, with what is not part of the name trimmed ("Shopify's" → Shopify). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;

/**
 * The names in `question` (words past its first that are capitalized or mixed-case, "GraphQL", "eBay", runs of
 * them joined: "Royal Mail") that no page of `pages` holds and one of whose words no page of the index holds
 * (`stats`), as the question writes them. None for a question
 * written in title case (its capitals are no sign of a name), nor for words in capitals only ("SLA" is often
 * written out on the page).
 */
export function unmentionedNames(question: string, pages: readonly RetrievedPage[], stats?: TermStats): string[] {
  if (pages.length === 0) return [];
  const words = [...question.matchAll(WORD)].map((m) => ({ text: m[0].replace(/['’]s$|[.'’-]+$/u, "") }));
  // Title case ("How Do I Reset My Password?"): a function word past the first capitalized.
  if (words.slice(1).some((w) => w.text !== "I" && /^\p{Lu}\p{Ll}*$/u.test(w.text) && STOPWORDS.has(w.text.toLowerCase()))) return [];
  const texts = pages.map((p) => folded(`${p.title}\n${p.markdown}`));
  // Words are said by their stems opening words of a page, in order, in any form ("Romans" by "Roman"), with
  // or without accents ("Herve" by "Hervé"), whatever joins them ("Rhine-Meuse" by "Rhine–Meuse").
  const said = (words: string) => {
    const parts = folded(words).split(" ").filter(Boolean);
    const phrase = new RegExp(`\\b${parts.map((part) => escaped(sharedStart(part, stem(part)))).join("\\S* ")}`);
    return texts.some((t) => phrase.test(t));
  };
  // "I'm", "I've" are no names.
  const isName = (w: string) => w.length >= 2 && /\p{Lu}/u.test(w) && /\p{Ll}/u.test(w) && !CALENDAR.test(w) && !/^I['’]/.test(w);
  // Runs of name words past the first word ("Royal Mail"): one is unmentioned when no page says it and one of
  // its words is said nowhere ("La Poste" of pages saying "Canada Post"; not "FedEx Ground" of pages saying
  // both words apart).
  const runs: { text: string }[][] = [];
  words.forEach((w, i) => {
    if (i === 0 || !isName(w.text)) return;
    if (runs.length > 0 && words[i - 1] === runs.at(-1)!.at(-1)) runs.at(-1)!.push(w);
    else runs.push([w]);
  });
  // A word the pages found do not say may still be on a page ranked below them: only one the index holds on
  // no page at all is said nowhere (of every brain: the index's counts are global).
  // Nor a short form whose long form a page says ("TAs" of "Teaching assistants: …").
  const saidInFull = (w: string) => termVariants([folded(w)]).some((v) => said(v.variant));
  const nowhere = (w: string) => !said(w) && !saidInFull(w) && folded(w).split(" ").some((part) => (stats?.documentFrequency.get(part) ?? 0) === 0);
  const text = (run: { text: string }[]) => run.map((w) => w.text).join(" ");
  return runs.filter((run) => !said(text(run)) && run.some((w) => nowhere(w.text))).map(text);
}

/** What a word and its stem begin with alike: a stem may end otherwise ("brightpay" → "brightpai"). */
function sharedStart(word: string, stemmed: string): string {
  let n = 0;
  while (n < word.length && word[n] === stemmed[n]) n++;
  return word.slice(0, n);
}

/** Months and days, capitalized in English but no names: a page may say them in numbers ("2026-10-02"). */
const CALENDAR = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)$/i;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Lower case, without accents, dashes as spaces. */
const folded = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[-‐‑–—]+/g, " ")
    .toLowerCase();

/** The sentence said before an answer when the question's names are not in the brain's pages. */
export function unmentionedNote(names: readonly string[]): string {
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  return `No page of this brain mentions ${listed}; the closest pages say:`;
}
