// One strategy per answer shape (frame.ts): bridge, comparison, yes/no; two-part questions are answered part
// by part by the service (it retrieves for each part). Each strategy is a named rule (rules.ts).
import type { QuestionFrame } from "../frame";
import { ruleOn, RULES } from "../rules";
import { bridgeAnswer } from "./bridge";
import { comparisonAnswer } from "./comparison";
import type { PageReader } from "./pages";
import type { Shaped } from "./shaped";
import { yesNoAnswer } from "./yes-no";

export { pageReader, type Lookup, type PageReader } from "./pages";
export { shapedText, type Shaped } from "./shaped";

export async function shapedAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  if (frame.shape === "comparison" && ruleOn(RULES.comparison)) return comparisonAnswer(frame, reader);
  if (frame.shape === "yes-no" && ruleOn(RULES.yesNo)) return yesNoAnswer(frame, reader);
  if (frame.shape === "bridge" && ruleOn(RULES.bridge)) return bridgeAnswer(frame, reader);
  return null;
}

/** A part's words that name its subject, for a second part that says it with a pronoun ("what language is IT written in?"). */
export function withSubjectOf(first: string, second: string): string {
  if (!/\b(?:it|its|they|their|them|he|his|she|her)\b/i.test(second)) return second;
  const subject = first.replace(/^\s*(?:who|whom|whose|what|which|where|when|how)\s+(?:\p{L}+\s+)?/iu, "").replace(/\?+\s*$/, "");
  return `${second.replace(/\?+\s*$/, "")} (${subject})?`;
}
