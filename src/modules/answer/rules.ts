// The answer engine's named rules: each shape's strategy and each rule that changes an answer has a name here,
// so an evaluation can switch it off and measure what it is worth (scripts/eval-multihop.ts --off a,b).
// Every rule is on in the server; switching off is for measurement only.

export const RULES = {
  /** "Which film came out first, A or B?": choose, say the two facts (shapes/comparison.ts). */
  comparison: "shape.comparison",
  /** "Are A and B from the same country?": yes or no with both facts (shapes/yes-no.ts). */
  yesNo: "shape.yes-no",
  /** "Where was the director of film A born?": follow the chain, quote its last hop (shapes/bridge.ts). */
  bridge: "shape.bridge",
  /** "Who owns billing and what language is it written in?": each part answered or said unanswered (shapes/two-part.ts). */
  twoPart: "shape.two-part",
  /** A chain whose next hop has no page is thin, not a quote of the hop before (shapes/bridge.ts). */
  incompleteChainThin: "thin.incomplete-chain",
  /** A chain no relation list names, followed hop by hop: each hop's sentence says what the hops before left unsaid, of the thing the hop before names (shapes/chain.ts). */
  chain: "shape.chain",
  /** A chain's hop says the clause it answers: "the ACTOR that PLAYS Vision" is said by a sentence saying "Vision" (shapes/chain-terms.ts). */
  chainClause: "chain.clause",
  /** A chain's term inside a name the question writes ("Mary Poppins", a page's title) is said only by a text saying the whole name (shapes/chain-terms.ts). */
  chainWholeNames: "chain.whole-names",
  /** A chain's bridge is met in its forms: "King Henry III of England" as "Henry III", "Lorenzo Costa the Elder" as "Lorenzo Costa"; its pages are all those titled so (shapes/pages.ts). */
  chainNameForms: "chain.name-forms",
  /** The noun a chained question's wh-word asks for ("what CITY is the star of X from?") is said by a later hop's sentence holding a name (or a time, for "what year"), as the answer is of that kind (shapes/chain.ts). */
  chainTypedHead: "chain.typed-head",
  /** A chain's first hop says a name the question writes, when a sentence does ("… the county where TENEMENT was founded"); the pages found for each name are read too (shapes/chain.ts). */
  chainNamedStart: "chain.named-start",
  /** A hop's clause is bounded: not past "the FATHER of …" (the next hop's relation), not back to the question's own verb ("What event CAUSED …"), never the wh-word's noun (shapes/chain-terms.ts). */
  chainClauseBounds: "chain.clause-bounds",
  /** A hop's clause stops at any asked noun before "of" its sentence does not say, not only a kinship ("the CEO of FleetBoston's purchaser": the CEO is the next hop's); a role's acronym before "of" is no part of a name (shapes/chain-terms.ts, shapes/chain.ts). */
  chainOuterOf: "chain.outer-of",
  /** An actor, actress or star is said by the words a cast is written with ("It STARS Geena Davis as Thelma", "portrayed by") (shapes/chain-terms.ts, words/relations.ts). */
  chainCastCues: "chain.cast-cues",
  /** A question's verbs said as pages say them: "founded" by "formed", "made" by "developed by", "bought" by "acquired" (shapes/chain-terms.ts, words/relations.ts). */
  chainVerbCues: "chain.verb-cues",
  /** A title joined by "&" ("Thelma & Louise") is no person's name: its last word alone does not mention it (shapes/chain-terms.ts). */
  chainAmpersandTitles: "chain.ampersand-titles",
  /** A chain's last hop is quoted with the sentence after it on its page when that one says what the hop left unsaid ("… population in 2009 was …. The population DENSITY was …") (shapes/chain.ts). */
  chainNextSentence: "chain.next-sentence",
  /** Every hop's sentence that does not name its page's subject ("She began as a child performer …") is quoted after its page's opening, not only the last hop's (shapes/chain.ts). */
  chainHopOpenings: "chain.hop-openings",
  /** A question writing the wh-word's noun twice ("Which COMPANY followed the COMPANY that made X?"): the first hop's sentence says the inner one, never the one asked (shapes/chain.ts). */
  chainRepeatedHead: "chain.repeated-head",
  /** A hop's bridge is first the name its clause's relation is said of ("the singer of Moon River": "performed by AUDREY HEPBURN"), not any name nearby (shapes/chain.ts). */
  chainAnswerSpan: "chain.answer-span",
  /** A later hop's sentence may say the bridge's name in the sentence before it on its page; the two are quoted together (shapes/chain.ts). */
  chainAdjacentMention: "chain.adjacent-mention",
  /** A later hop's search asks for the bridge with the unsaid relations' cues ("married", "wife" for "spouse") besides the unsaid words (shapes/chain.ts). */
  chainCueSearch: "chain.cue-search",
  /** A chain is also asked by a named thing's noun ("Tammy Leitner's city of birth"), a clause without its pronoun ("the award X received") or one opened by "when" or a participle (shapes/index.ts). */
  chainClauseForms: "chain.clause-forms",
  /** A chain's walk that never says all the question asks tries the next best hops in turn: a first hop whose bridges lead to no page saying the rest is the wrong one (shapes/chain.ts). */
  chainBacktrack: "chain.backtrack",
  /** A chained question whose next hop no page says is thin, not a quote of the hops found (shapes/chain.ts). */
  unfinishedChainThin: "thin.unfinished-chain",
  /** A comparison's or a yes/no's bridge per option ("the director of A"), followed before comparing. */
  optionBridge: "shape.option-bridge",
  /** "Are A and B from the same country?": each page's countries as a set (a co-production, two nationalities), yes when they share one (shapes/yes-no.ts). */
  countrySets: "yes-no.country-sets",
  /** "Do both films have the same director?": each option's relation followed, yes when both name the same one (shapes/yes-no.ts). */
  sameRelation: "yes-no.same-relation",
  /** "Are A and B both American?": yes when each is of the country asked (frame.ts, shapes/yes-no.ts). */
  countryAsked: "yes-no.country-asked",
  /** "Was A born before B?", "Was the director of A born earlier than the director of B?": an order of two, yes when the first comes first (frame.ts). */
  beforeAfter: "yes-no.before-after",
  /** "Was A or B born first?": a choice in a polar question's words is a comparison, not a yes/no (frame.ts). */
  polarChoice: "comparison.polar-choice",
  /** "17 September 190030 April 1985": a year run into the next date's day, its dash lost, read as two dates (shapes/values.ts). */
  gluedDates: "values.glued-dates",
  /** A life's dates from the opening's own span before a later sentence's "died" (another's, or "Ph.D. in 1904"); a dateless bracket inside the span read past (shapes/values.ts). */
  lifeSpanFirst: "values.life-span-first",
  /** "Who was born first out of A and B?", "Which film came out first between A and B?": the options after "out of" or "between" (frame.ts). */
  outOfBetween: "comparison.out-of-between",
  /** "Is A located in the same country as B?", "the movies A and B, originate from …": the options without the question's words around them (frame.ts). */
  sameOptionWords: "yes-no.option-words",
  /** "Are A, B and C from the same country?": each of three or more options read, yes when all share one (frame.ts, shapes/yes-no.ts). */
  manyOptions: "yes-no.many-options",
  /** A page naming no country but a language or film industry of one ("a 1975 Kannada film"): that country (shapes/values.ts, words/nationalities.ts). */
  languageCountry: "yes-no.language-country",
  /** "Are A and B from the same country?" when A has a page and B none: thin, not the plain answer's quote (shapes/yes-no.ts). */
  optionMissingThin: "thin.yes-no-option-missing",
} as const;

export type RuleName = (typeof RULES)[keyof typeof RULES];

const off = new Set<string>();

/** Whether a rule is on (all are, unless an evaluation switched it off). */
export const ruleOn = (name: RuleName) => !off.has(name);

/** Evaluation only: switches the named rules off (an unknown name is an error, so a typo is not a measurement). */
export function switchRulesOff(names: readonly string[]): void {
  const known = new Set<string>(Object.values(RULES));
  for (const name of names) {
    if (!known.has(name)) throw new Error(`unknown answer rule "${name}"; known: ${[...known].join(", ")}`);
    off.add(name);
  }
}
