// Yes/no: "Are A and B both from the same country?" reads each one's countries (through a relation when the
// question names one: "Are the directors of A and B …"); "Are A and B both American?" checks each against the
// country asked; "Do both films have the same director?" follows each one's relation and compares whom it
// names; "Is A older than B?" compares as a comparison does. "Yes" or "No" first, then both facts; thin when
// either fact is missing (a guess is no answer).
import type { QuestionFrame } from "../frame";
import { ruleOn, RULES } from "../rules";
import { compare, optionPages, subjects, type Valued } from "./comparison";
import { follow } from "./follow";
import { plain, type PageReader } from "./pages";
import type { Fact, Shaped } from "./shaped";
import { countriesOf, countryOf } from "./values";

export async function yesNoAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  if (frame.polarComparison) return orderAnswer(frame, reader);
  if (frame.same === "country") return sameCountryAnswer(frame, reader);
  if (frame.same === "relation") return sameRelationAnswer(frame, reader);
  return null;
}

/**
 * Options of which some have a page and some none: thin (a yes or a no would be a guess). When none has one,
 * the question's words were read as options wrongly ("Can I change plans AFTER getting married?"): the plain answer.
 */
async function noOptions(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  if (!ruleOn(RULES.optionMissingThin)) return null;
  for (const split of frame.optionSplits) for (const option of split) if ((await reader.byName(option, frame.question)) ?? reader.titledIn(option)[0]) return { kind: "thin", reason: "an option has no page of its own" };
  return null;
}

/** "A and B", "A, B and C". */
const listed = (names: string[]) => (names.length > 2 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join(" and "));

/** "Is A older than B?": yes when the first option comes first the way the question asks. */
async function orderAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  const result = await compare(frame, reader);
  // No choice made: a tie, or an option with no page (thin: a yes or a no would be a guess).
  if (!result) return (await optionPages(frame, reader)) ? null : noOptions(frame, reader);
  if (result.missing) return { kind: "thin", reason: "a compared value is missing" };
  const yes = result.ranked[0]!.option === frame.optionSplits[0]![0]!;
  const said = (v: Valued) => (v.named ? `${v.option}'s ${frame.via} ${v.named} (${v.said})` : `${v.option} (${v.said})`);
  const [a, b] = result.ranked;
  return { kind: "answer", lead: `${yes ? "Yes" : "No"}: ${said(a!)} ${frame.compared!.phrase[0]} ${said(b!)}.`, facts: result.ranked.flatMap((v) => v.facts) };
}

/** A page's countries: every one of a joined run ("British–American"), or only the one it says first when that rule is off. */
function countriesRead(sentences: string[]): { countries: string[]; sentence: string } | null {
  if (ruleOn(RULES.countrySets)) return countriesOf(sentences);
  const one = countryOf(sentences);
  return one ? { countries: [one.country], sentence: one.sentence } : null;
}

async function sameCountryAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  const options = await optionPages(frame, reader);
  if (!options) return noOptions(frame, reader);
  const subs = await subjects(frame, reader, options);
  if (!subs) return { kind: "thin", reason: "a related page is missing" };
  const read = subs.map((s) => ({ ...s, found: countriesRead(reader.sentences(s.subject)) }));
  if (read.some((r) => !r.found)) return { kind: "thin", reason: "a country is not said" };
  const facts = read.flatMap((r) => [...r.facts, { text: r.found!.sentence, page: r.subject }]);
  const who = (r: (typeof read)[number]) => (r.named ? `${r.option}'s ${frame.via} ${r.named}` : r.option);
  // The country asked, or one every option shares.
  const shared = frame.countryAsked
    ? read.every((r) => r.found!.countries.includes(frame.countryAsked!)) ? [frame.countryAsked] : []
    : read[0]!.found!.countries.filter((c) => read.every((r) => r.found!.countries.includes(c)));
  const lead =
    shared.length > 0
      ? `Yes: ${listed(read.map(who))} are ${read.length > 2 ? "all" : "both"} from ${shared[0]}.`
      : `No: ${read.map((r) => `${who(r)} is from ${r.found!.countries.join(" and ")}`).join(", ")}.`;
  return { kind: "answer", lead, facts };
}

/** "Do both films have the same director?": yes when each option's relation names the same one (the same page, or the same name). */
async function sameRelationAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  if (!frame.via) return null;
  const options = await optionPages(frame, reader);
  if (!options) return noOptions(frame, reader);
  const seen = new Set(options.map((o) => o.page.pageId));
  const hops = [];
  for (const { option, page } of options) {
    const hop = await follow(reader, page, frame.via, seen, frame.question);
    if (!hop) return { kind: "thin", reason: `a ${frame.via} is not said` };
    hops.push({ option, named: hop.next && !hop.reverse ? hop.named : (hop.next?.title ?? hop.named), pageId: hop.next?.pageId ?? null, fact: { text: hop.sentence, page: hop.reverse ? hop.next! : page } as Fact });
  }
  const a = hops[0]!;
  const same = hops.every((b) => (a.pageId !== null && a.pageId === b.pageId) || plain(a.named) === plain(b.named));
  const lead = same
    ? `Yes: ${listed(hops.map((h) => h.option))} ${hops.length > 2 ? "all" : "both"} have the ${frame.via} ${a.named}.`
    : `No: ${hops.map((h) => `${h.option}'s ${frame.via} is ${h.named}`).join(", ")}.`;
  return { kind: "answer", lead, facts: hops.map((h) => h.fact) };
}
