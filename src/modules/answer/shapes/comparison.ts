// Comparison: "Which film came out first, A or B?" reads the compared value of each option's page (a date,
// a life's length, a quantity), through a relation when the question names one ("the film whose director
// was born first"), and answers with the chosen one first, then the facts it rests on:
// "Sacred Planet (2004) came before Oz the Great and Powerful (2013)." Values compare as values; a tie or a
// value not found is no choice (the plain answer is given instead).
import type { RetrievedPage } from "../../../retrieval";
import type { Compared, QuestionFrame } from "../frame";
import { ruleOn, RULES } from "../rules";
import { stemSet, stem } from "../sentences";
import { follow } from "./follow";
import type { PageReader } from "./pages";
import type { Fact } from "./shaped";
import { eventDate, lifeDate, quantityIn } from "./values";

export interface Valued {
  option: string;
  page: RetrievedPage;
  /** The page the value is read from: the option's, or its relation's ("the director of A"). */
  subject: RetrievedPage;
  named: string | null;
  value: number;
  said: string;
  facts: Fact[];
}

/** The options' pages, by the first way of splitting them whose every option is a page of its own. */
export async function optionPages(frame: QuestionFrame, reader: PageReader): Promise<{ option: string; page: RetrievedPage }[] | null> {
  // The split into most options first: "A, B, or C" is three when each is a page, else "A, B" is one name.
  for (const split of [...frame.optionSplits].sort((a, b) => b.length - a.length)) {
    const titled = (option: string) => {
      const pages = reader.titledIn(option);
      return pages.length === 1 ? pages[0]! : null;
    };
    const found = await Promise.all(split.map(async (option) => ({ option, page: (await reader.byName(option, frame.question)) ?? titled(option) })));
    if (found.every((f) => f.page) && new Set(found.map((f) => f.page!.pageId)).size === found.length) return found as { option: string; page: RetrievedPage }[];
  }
  return null;
}

/** Each option's page, followed through `frame.via` when there is one; null when a hop has no page. */
export async function subjects(frame: QuestionFrame, reader: PageReader, options: { option: string; page: RetrievedPage }[]) {
  const out: { option: string; page: RetrievedPage; subject: RetrievedPage; named: string | null; facts: Fact[] }[] = [];
  for (const { option, page } of options) {
    if (!frame.via || !ruleOn(RULES.optionBridge)) {
      out.push({ option, page, subject: page, named: null, facts: [] });
      continue;
    }
    const hop = await follow(reader, page, frame.via, new Set(options.map((o) => o.page.pageId)), frame.question);
    if (!hop?.next) return null;
    out.push({ option, page, subject: hop.next, named: hop.named, facts: [{ text: hop.sentence, page }] });
  }
  return out;
}

/** The compared value of a page, as a number, as said, and the sentence it is said in. */
export function valueOf(sentences: string[], compared: Compared): { value: number; said: string; sentence: string[] } | null {
  const days = (d: { year: number; value: number }) => d.year * 372 + Math.floor((d.value % 10_000) / 100) * 31 + (d.value % 100);
  switch (compared.value) {
    case "birth":
    case "death": {
      const life = lifeDate(sentences, compared.value) ?? (compared.value === "birth" ? eventDate(sentences) : null);
      return life ? { value: life.date.value, said: `${compared.value === "birth" ? "born" : "died"} ${life.date.text}`, sentence: [life.sentence] } : null;
    }
    case "lifespan": {
      const [born, died] = [lifeDate(sentences, "birth"), lifeDate(sentences, "death")];
      if (!born || !died || died.date.value <= born.date.value) return null;
      const years = Math.floor((days(died.date) - days(born.date)) / 372);
      return { value: days(died.date) - days(born.date), said: `${born.date.text} – ${died.date.text}, ${years} years`, sentence: [born.sentence, died.sentence] };
    }
    case "event": {
      const event = eventDate(sentences);
      return event ? { value: event.date.value, said: event.date.text, sentence: [event.sentence] } : null;
    }
    case "quantity": {
      const words = compared.words.map(stem);
      for (const s of sentences) {
        const stems = stemSet(s);
        if (words.length > 0 && !words.some((w) => stems.has(w))) continue;
        const q = quantityIn(s);
        if (q) return { value: q.value, said: q.text, sentence: [s] };
      }
      return null;
    }
  }
}

/** The options with their values, the chosen one first; null when a value is missing or the best ties. */
export async function compare(frame: QuestionFrame, reader: PageReader): Promise<{ ranked: Valued[]; missing: boolean } | null> {
  const compared = frame.compared;
  if (!compared) return null;
  const options = await optionPages(frame, reader);
  if (!options) return null;
  const subs = await subjects(frame, reader, options);
  if (!subs) return { ranked: [], missing: true };
  const valued: Valued[] = [];
  for (const s of subs) {
    const v = valueOf(reader.sentences(s.subject), compared);
    if (!v) return { ranked: [], missing: true };
    valued.push({ ...s, value: v.value, said: v.said, facts: [...s.facts, ...v.sentence.map((text) => ({ text, page: s.subject }))] });
  }
  const sign = compared.pick === "min" ? 1 : -1;
  const ranked = [...valued].sort((a, b) => sign * (a.value - b.value));
  // A year alone against a date of the same year (or two equal values) does not tell which came first.
  if (ranked[0]!.value === ranked[1]!.value || Math.floor(ranked[0]!.value / 10_000) === Math.floor(ranked[1]!.value / 10_000) && (ranked[0]!.value % 10_000 === 0 || ranked[1]!.value % 10_000 === 0)) return null;
  return { ranked, missing: false };
}

/** "A (2004) came before B (2013).", "A: its director X (born 1900) was born before B's director Y (born 1920)." */
export function leadOf(frame: QuestionFrame, ranked: Valued[]): string {
  const [chosen, ...others] = ranked;
  const [against, alone] = frame.compared!.phrase;
  const said = (v: Valued) => (v.named ? `its ${frame.via} ${v.named} (${v.said})` : `(${v.said})`);
  const other = (v: Valued) => (v.named ? `${v.option}'s ${frame.via} ${v.named} (${v.said})` : `${v.option} (${v.said})`);
  if (others.length === 1) return chosen!.named ? `${chosen!.option}: ${said(chosen!)} ${against} ${other(others[0]!)}.` : `${chosen!.option} ${said(chosen!)} ${against} ${other(others[0]!)}.`;
  return `${chosen!.option} ${said(chosen!)} ${alone}, of ${others.map(other).join(", ")}.`;
}

export async function comparisonAnswer(frame: QuestionFrame, reader: PageReader) {
  const result = await compare(frame, reader);
  if (!result || result.missing) return null;
  return { kind: "answer" as const, lead: leadOf(frame, result.ranked), facts: result.ranked.flatMap((v) => v.facts) };
}
