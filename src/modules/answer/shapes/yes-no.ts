// Yes/no: "Are A and B both from the same country?" reads each one's country (through a relation when the
// question names one: "Are the directors of A and B …"); "Is A older than B?" compares as a comparison does.
// "Yes" or "No" first, then both facts; thin when either fact is missing (a guess is no answer).
import type { QuestionFrame } from "../frame";
import { compare } from "./comparison";
import { optionPages, subjects } from "./comparison";
import type { PageReader } from "./pages";
import type { Shaped } from "./shaped";
import { countryOf } from "./values";

export async function yesNoAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  if (frame.polarComparison) {
    const result = await compare(frame, reader);
    if (!result) return null;
    if (result.missing) return { kind: "thin", reason: "a compared value is missing" };
    const first = frame.optionSplits[0]![0]!;
    const yes = result.ranked[0]!.option === first;
    const [a, b] = result.ranked;
    return { kind: "answer", lead: `${yes ? "Yes" : "No"}: ${a!.option} (${a!.said}) ${frame.compared!.phrase[0]} ${b!.option} (${b!.said}).`, facts: result.ranked.flatMap((v) => v.facts) };
  }
  if (frame.same !== "country") return null;
  const options = await optionPages(frame, reader);
  if (!options) return null;
  const subs = await subjects(frame, reader, options);
  if (!subs) return { kind: "thin", reason: "a related page is missing" };
  const read = subs.map((s) => ({ ...s, country: countryOf(reader.sentences(s.subject)) }));
  if (read.some((r) => !r.country)) return { kind: "thin", reason: "a country is not said" };
  const countries = new Set(read.map((r) => r.country!.country));
  const who = (r: (typeof read)[number]) => (r.named ? `${r.option}'s ${frame.via} ${r.named}` : r.option);
  const lead =
    countries.size === 1
      ? `Yes: ${read.map(who).join(" and ")} are both from ${[...countries][0]}.`
      : `No: ${read.map((r) => `${who(r)} is from ${r.country!.country}`).join(", ")}.`;
  return { kind: "answer", lead, facts: read.flatMap((r) => [...r.facts, { text: r.country!.sentence, page: r.subject }]) };
}
