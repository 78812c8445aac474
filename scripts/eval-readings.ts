// The values a comparison or a yes/no reads from one page (src/modules/answer/shapes/values.ts), measured
// against 2WikiMultihopQA's evidence triples: for every triple of a country or a date whose subject's
// paragraph the question holds, the country set or the date the page is read to say. Many more facts than
// the set's yes/no questions, so a reading is judged on pages of every kind, not on a few questions.
//   bun scripts/eval-readings.ts [--half calibration|report|all] [--failures] [--off rule,rule]
// No server: the readings are pure functions of a page's sentences.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sentencesOf } from "../src/modules/answer/sentences";
import { joinedAbbreviations, plain } from "../src/modules/answer/shapes/pages";
import { countriesOf, datesIn, eventDate, lifeDate } from "../src/modules/answer/shapes/values";
import { countryNamed } from "../src/modules/answer/words/nationalities";
import { switchRulesOff } from "../src/modules/answer/rules";
import { EVAL_DIR } from "./eval-common";
import { half } from "./multihop-data";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const halfArg = arg("--half") ?? "calibration";
const showFailures = process.argv.includes("--failures");
// --off rule,rule: the named answer rules switched off (src/modules/answer/rules.ts), to measure what each reading is worth.
switchRulesOff(arg("--off")?.split(",").filter(Boolean) ?? []);

interface Row {
  id: string;
  question: string;
  paragraphs: { title: string; text: string }[];
  evidences: [string, string, string][];
}
const items = readFileSync(join(EVAL_DIR, "multihop", "2wikimultihopqa_dev_500.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row)
  .filter((i) => halfArg === "all" || half(i.id) === halfArg);

const COUNTRY = new Set(["country of citizenship", "country of origin", "country"]);
const DATE: Record<string, "birth" | "death" | "event"> = { "date of birth": "birth", "date of death": "death", "publication date": "event", inception: "event" };

const tally = new Map<string, { n: number; right: number; none: number }>();
const failures: string[] = [];
const count = (kind: string, outcome: "right" | "wrong" | "none", line: string) => {
  const t = tally.get(kind) ?? { n: 0, right: 0, none: 0 };
  t.n++;
  if (outcome === "right") t.right++;
  if (outcome === "none") t.none++;
  tally.set(kind, t);
  if (outcome !== "right") failures.push(`${kind} ${outcome}: ${line}`);
};

for (const item of items) {
  // A subject's facts, gathered: a co-production has several countries of origin.
  const bySubject = new Map<string, { relation: string; values: string[] }>();
  for (const [subject, relation, value] of item.evidences) {
    if (!COUNTRY.has(relation) && !DATE[relation]) continue;
    const key = `${subject}\u0000${COUNTRY.has(relation) ? "country" : relation}`;
    const entry = bySubject.get(key) ?? { relation, values: [] };
    entry.values.push(value);
    bySubject.set(key, entry);
  }
  for (const [key, { relation, values }] of bySubject) {
    const subject = key.split("\u0000")[0]!;
    const paragraph = item.paragraphs.find((p) => plain(p.title) === plain(subject));
    if (!paragraph) continue;
    const sentences = joinedAbbreviations([...new Set(sentencesOf(paragraph.text).map((s) => s.whole))]);
    const opening = `${paragraph.title}: ${paragraph.text.slice(0, 160)}`;
    if (COUNTRY.has(relation)) {
      const gold = new Set(values.map((v) => countryNamed(v)).filter((c): c is string => !!c));
      if (gold.size === 0) continue;
      const read = countriesOf(sentences);
      const outcome = !read ? "none" : read.countries.some((c) => gold.has(c)) ? "right" : "wrong";
      count("country", outcome, `${[...gold].join("/")} read ${read?.countries.join("/") ?? "-"} | ${opening}`);
    } else {
      const gold = datesIn(values[0]!)[0];
      if (!gold) continue;
      const which = DATE[relation]!;
      const read = which === "event" ? eventDate(sentences) : (lifeDate(sentences, which) ?? (which === "birth" ? eventDate(sentences) : null));
      const same = read && (read.date.value === gold.value || ((read.date.yearOnly || gold.yearOnly) && read.date.year === gold.year));
      count(relation, !read ? "none" : same ? "right" : "wrong", `${values[0]} read ${read?.date.text ?? "-"} | ${opening}`);
    }
  }
}

console.log(`\n2WikiMultihopQA evidence triples, ${halfArg} half: values read from the subject's paragraph`);
console.log(`  ${"".padEnd(24)}${["n", "right", "wrong", "none"].map((h) => h.padStart(8)).join("")}`);
for (const [kind, t] of [...tally].sort()) {
  const pct = (n: number) => `${((100 * n) / t.n).toFixed(1)}%`.padStart(8);
  console.log(`  ${kind.padEnd(24)}${String(t.n).padStart(8)}${pct(t.right)}${pct(t.n - t.right - t.none)}${pct(t.none)}`);
}
if (showFailures) for (const f of failures) console.log(`  ✗ ${f}`);
