// One strategy per answer shape (frame.ts): bridge, comparison, yes/no; two-part questions are answered part
// by part by the service (it retrieves for each part). Each strategy is a named rule (rules.ts).
import type { QuestionFrame } from "../frame";
import { ruleOn, RULES } from "../rules";
import { bridgeAnswer } from "./bridge";
import { chainAnswer } from "./chain";
import { comparisonAnswer } from "./comparison";
import type { PageReader } from "./pages";
import type { Shaped } from "./shaped";
import { yesNoAnswer } from "./yes-no";

export { pageReader, type Lookup, type PageReader } from "./pages";
export { shapedText, type Shaped } from "./shaped";

export async function shapedAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  if (frame.shape === "comparison" && ruleOn(RULES.comparison)) return comparisonAnswer(frame, reader);
  if (frame.shape === "yes-no" && ruleOn(RULES.yesNo)) return yesNoAnswer(frame, reader);
  if (frame.shape === "bridge" || (frame.shape === "plain" && asksChain(frame))) return chainedAnswer(frame, reader);
  return null;
}

/**
 * A bridge by its relation words first (shapes/bridge.ts); when that does not say what is asked, the chain
 * followed by what each hop leaves unsaid (shapes/chain.ts). An unfinished chain of a question that writes a
 * clause about a thing it does not name is thin.
 */
async function chainedAnswer(frame: QuestionFrame, reader: PageReader): Promise<Shaped | null> {
  const bridged = frame.shape === "bridge" && ruleOn(RULES.bridge) ? await bridgeAnswer(frame, reader) : null;
  if (bridged?.kind === "answer" && bridged.lead === null) return bridged;
  if (!ruleOn(RULES.chain)) return bridged;
  const chain = await chainAnswer(frame, reader);
  if (chain?.complete) return { kind: "answer", lead: null, facts: chain.facts };
  if (bridged) return bridged;
  // A bridge frame's own strategy said when its chain is incomplete (thin.incomplete-chain); when it found no
  // chain at all, the plain answer is given as before.
  // Only a relation left unsaid makes it thin: a plain question's words a sentence misses are no missing hop.
  if (chain?.relationUnsaid && frame.shape === "plain" && ruleOn(RULES.unfinishedChainThin)) return { kind: "thin", reason: "the chain's next hop is on no page" };
  return null;
}

/** "… the actor WHO plays …", "… the river THAT … flows into", "… the company that bought …": a clause about an unnamed thing. */
const CLAUSE = /\b(?:the|a|an)\s+(?:[\p{Ll}-]+\s+){1,3}?(?:who|whom|that|which|where|whose)\s+\p{L}/u;
/** A chain no bridge frame found: a clause about an unnamed thing, or a relation of one ("the AUTHOR of …"). */
export const asksChain = (frame: QuestionFrame) =>
  CLAUSE.test(frame.question) || frame.relations.some((r) => !r.generic) || (ruleOn(RULES.chainClauseForms) && CLAUSE_FORMS.some((form) => form.test(frame.question)));

/**
 * Other ways English writes a clause about an unnamed thing: a named thing's noun ("Tammy Leitner's CITY of
 * birth", "FleetBoston Financial's PURCHASER"), a clause without its pronoun ("the award Dhondo Keshav Karve
 * RECEIVED"), one opened by "when" or a participle ("the conflict WHEN UN troops …", "the territory CONTAINING …").
 */
const CLAUSE_FORMS = [
  /\p{Lu}[\p{L}.-]*['’]s\s+\p{Ll}{3,}/u,
  /\b(?:the|a|an)\s+\p{Ll}{3,}\s+(?:\p{Lu}[\p{L}.'’-]*\s+){1,4}\p{Ll}+ed\b/u,
  /\b(?:the|a|an)\s+(?:\p{Ll}+\s+){0,2}\p{Ll}{3,}\s+(?:when|during which|in which)\s+\p{L}/u,
  /\b(?:the|a|an)\s+\p{Ll}{3,}\s+\p{Ll}{3,}ing\s+(?:the\s+)?\p{Lu}/u,
];

/** A part's words that name its subject, for a second part that says it with a pronoun ("what language is IT written in?"). */
export function withSubjectOf(first: string, second: string): string {
  if (!/\b(?:it|its|they|their|them|he|his|she|her)\b/i.test(second)) return second;
  const subject = first.replace(/^\s*(?:who|whom|whose|what|which|where|when|how)\s+(?:\p{L}+\s+)?/iu, "").replace(/\?+\s*$/, "");
  return `${second.replace(/\?+\s*$/, "")} (${subject})?`;
}
