// The lead of a source page without a model: its most central sentence (the one sharing the most words
// with the rest of the page and its title), placed first unless the page already opens with it; taken
// from the introduction of a page in sections, and none for a page of labelled entries.
import { proseOf } from "./extract";
import { proseUnits } from "../ingest/markdown-prose";
import { withAbbreviationsJoined } from "../lib/sentence-ends";
import { OPENING_TITLE } from "../lib/repeated-lead";

const MAX_LEAD_CHARS = 320;
/** Labelled entries that make a page a list of entries (a FAQ, a glossary). */
const MIN_ENTRIES = 2;
const WORD = /[\p{L}\p{N}]{4,}/gu;

function sentencesOf(text: string): string[] {
  return text
    .split(/\n{2,}/)
    .flatMap((paragraph) => withAbbreviationsJoined(paragraph.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)))
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length >= 20);
}

/**
 * The lead sentence, or "" when the page is one sentence long or already starts with its lead. A sentence
 * is central by the words it shares with the other sentences and with the page's title; one that shares
 * nothing is no evidence, so the page keeps its opening (the shortest sentence used to win such a page).
 */
export function extractiveLead(markdown: string, title = ""): string {
  const sentences = sentencesOf(proseOf(markdown, ["paragraph"]));
  if (sentences.length < 3) return "";
  // A page of entries under labels or question headings (a FAQ's questions, a glossary's terms, a team's
  // names): one entry's text is no summary of the others ("Audit logs are kept for one year in S3." led a FAQ).
  const units = proseUnits(markdown);
  if (units.filter((u) => u.kind === "label" || (u.kind === "heading" && /\?\s*$/.test(u.text))).length >= MIN_ENTRIES) return "";
  // Nor a page of as many list items as sentences of prose, or more (meeting notes' points): its paragraphs
  // are the fields around the list ("Action items: … Lena to contact affected users." led a sync's notes).
  if (units.filter((u) => u.kind === "item").length >= sentences.length) return "";
  // A page in sections whose opening text comes before them: the lead is from that introduction, where an
  // author says what the page is about (a runbook's "Failover normally completes in under two minutes." was
  // central only to its own section).
  const intro = introductionOf(markdown);
  // A page of several sections and no introduction (a handbook's "Opening hours", "Food safety", "Allergens"):
  // one section's sentence is no summary of the rest ("If the walk-in fridge fails, …" led a kitchen handbook).
  if (intro === null && (markdown.match(SECTIONS) ?? []).length >= MIN_SECTIONS) return "";
  const candidates = intro === null ? sentences.length : sentencesOf(proseOf(intro, ["paragraph"])).length;
  const words = sentences.map((s) => new Set((s.toLowerCase().match(WORD) ?? []) as string[]));
  const titleWords = new Set((title.toLowerCase().match(WORD) ?? []) as string[]);
  const frequency = new Map<string, number>();
  for (const set of words) for (const w of set) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  let best = -1;
  let bestScore = 0;
  let bestShared = 0;
  sentences.forEach((sentence, i) => {
    if (sentence.length > MAX_LEAD_CHARS || i >= candidates || saysNoSummary(sentence)) return;
    let shared = 0;
    for (const w of words[i]!) shared += (frequency.get(w) ?? 1) - 1 + (titleWords.has(w) ? 1 : 0);
    const score = (shared + 1) / Math.sqrt(words[i]!.size + 1) / (1 + i * 0.05); // earlier wins ties
    if (score > bestScore) [best, bestScore, bestShared] = [i, score, shared];
  });
  if (best <= 0 || bestShared === 0) return ""; // the page already opens with it, or nothing is central
  // A copy of a sentence of the opening paragraph would say it twice within the page's first lines: the
  // page already opens with its lead's paragraph.
  if (squashed(openingParagraph(markdown)).includes(squashed(sentences[best]!))) return "";
  return sentences[best]!;
}

const squashed = (text: string) => text.replace(/\s+/g, " ").trim();

/** The page's first paragraph of prose, after its opening title. */
function openingParagraph(markdown: string): string {
  const blocks = markdown.replace(OPENING_TITLE, "").split(/\n\s*\n/);
  return blocks.find((b) => /[\p{L}\p{N}]/u.test(b) && !/^\s*#/.test(b)) ?? "";
}

/**
 * Sentences that say no summary, however central their words: a field, a label of one to three words before
 * a value of names, dates and numbers ("Next sync: October 20.", "Attendees: Luis Ortega, Priya Nair."; not
 * "Decision: the launch stays on November 17."), a page's stamp ("Last updated by Rosa Lindqvist …") and a
 * greeting ("Welcome to Acme engineering!"). Meeting notes and wiki pages led with them, as they repeat the
 * title's words.
 */
function saysNoSummary(sentence: string): boolean {
  if (/^(?:(?:welcome|hello|hi|hey|thanks|thank you)\b|last (?:updated|edited|modified|reviewed)\b)/i.test(sentence)) return true;
  const field = FIELD.exec(sentence);
  return field !== null && (field[1]!.match(/\b\p{Ll}{3,}\b/gu) ?? []).filter((w) => !FIELD_JOINERS.has(w)).length < 2;
}
const FIELD = /^[\p{L}\p{N}'’-]+(?: [\p{L}\p{N}'’-]+){0,2}:\s+(.*)$/u;
/** Lower-case words a field's value of names and dates may hold ("Maya Chen and Omar Haddad", "10 to 12 May"). */
const FIELD_JOINERS = new Set(["and", "the", "for", "from", "until", "with"]);

/** A section heading at the start of a line. */
const SECTION = /^#{1,6} /m;
/** Section headings below the title. */
const SECTIONS = /^#{2,6} /gm;
/** Sections that make a page too broad for one section's sentence to lead it. */
const MIN_SECTIONS = 3;

/** The text before the page's first section heading (after its title), or null when it has no sections or no such text. */
function introductionOf(markdown: string): string | null {
  const body = markdown.replace(OPENING_TITLE, "");
  const at = body.search(SECTION);
  return at > 0 && /[\p{L}\p{N}]/u.test(body.slice(0, at)) ? body.slice(0, at) : null;
}

/** The page with its lead paragraph first, under its opening title if it has one (unchanged when there is no separate lead). */
export function withLead(markdown: string, title = ""): string {
  const lead = extractiveLead(markdown, title);
  if (!lead) return markdown;
  const heading = OPENING_TITLE.exec(markdown)?.[0] ?? "";
  return `${heading.trimEnd()}${heading ? "\n\n" : ""}${lead}\n\n${markdown.slice(heading.length)}`;
}
