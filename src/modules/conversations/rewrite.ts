// A follow-up turn ("Where is she based?", "and in 2023?") means nothing to retrieval on its own. Before
// searching, it becomes a standalone question from the earlier turns: without a model, by carrying their
// rarest words (names, topic terms) into the query when the turn refers back; with a model, by asking it to
// rewrite the turn (model-rewrite.ts), this being the fallback. The tuning below was chosen by
// scripts/eval-conversation.ts on the calibration half of its data set.
import { englishFrequency } from "../../lib/english-frequency";
import { queryTerms, wordsOf } from "../../retrieval/terms";

/** An earlier turn as the rewrite reads it. */
export interface PriorTurn {
  question: string;
  /** What was searched for it: carries what that turn itself had taken from before it. */
  standaloneQuestion: string;
  answerMd: string;
}

export interface RewriteTuning {
  /** Words carried from the history into a follow-up, at most. */
  carry: number;
  /** A turn with at most this many content words of its own refers back even without a pronoun. */
  shortTurn: number;
  /** How much an answer's words count beside the question's (0: only questions). */
  answerWeight: number;
  /** Each turn further back counts this much less (1: all alike). */
  decay: number;
}

export const REWRITE_TUNING: RewriteTuning = { carry: 2, shortTurn: 4, answerWeight: 1, decay: 0.6 };

/**
 * Words that point back at something said before: personal and possessive pronouns, demonstratives, and the
 * "else/other/same" of a comparison. A closed class of function words, not a list of cases: whether a turn
 * that has none but is short still refers back is `shortTurn`, measured.
 */
const REFERRING = new Set(
  "he she it they him her them his hers its their theirs this that these those there then such same other others else another former latter one ones".split(" "),
);
/** Openings of an elliptic follow-up ("and in 2023?", "what about Berlin?", "how about the others?"). */
const ELLIPTIC_OPENING = /^\s*(?:and|also|but|or|so|what about|how about|what of)\b/i;

/** The standalone question searched for `question` after `history` (oldest first); the question itself when it stands alone. */
export function extractiveRewrite(question: string, history: readonly PriorTurn[], tuning: RewriteTuning = REWRITE_TUNING): string {
  if (history.length === 0) return question;
  const own = queryTerms(question);
  if (!refersBack(question, own.length, tuning)) return question;
  const carried = carriedWords(history, new Set(own), tuning);
  return carried.length ? `${question.trim()} (${carried.join(" ")})` : question;
}

export function refersBack(question: string, ownTerms: number, tuning: RewriteTuning = REWRITE_TUNING): boolean {
  if (ELLIPTIC_OPENING.test(question)) return true;
  if (wordsOf(question).some((w) => REFERRING.has(w))) return true;
  return ownTerms <= tuning.shortTurn;
}

/**
 * The history's most telling words, not already in the turn: each word scores its rarity in English (a name
 * or a topic term, not "said" or "year") times how recent the turn is (times the answers' weight for an
 * answer's words), each time it is used: a topic is what the turns keep naming (counting a word once per
 * text measured worse). Shown in the case first written, in the order the history used them.
 */
function carriedWords(history: readonly PriorTurn[], own: ReadonlySet<string>, tuning: RewriteTuning): string[] {
  const { counts, total } = englishFrequency();
  const score = new Map<string, number>();
  const shown = new Map<string, { text: string; order: number }>();
  let order = 0;
  const add = (text: string, weight: number) => {
    for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
      const term = queryTerms(match[0])[0];
      // One- and two-digit numbers (days, counts) say nothing of the topic; a year does.
      if (!term || own.has(term) || /^\d{1,2}$/.test(term)) continue;
      const rarity = Math.log((total + 1) / ((counts.get(term) ?? 0) + 1));
      score.set(term, (score.get(term) ?? 0) + weight * rarity);
      // Shown without a possessive: "Ali's" would add a stray "s" to the query.
      if (!shown.has(term)) shown.set(term, { text: match[0].replace(/['’]s$/i, ""), order: order++ });
    }
  };
  history.forEach((turn, i) => {
    const recency = tuning.decay ** (history.length - 1 - i);
    add(turn.standaloneQuestion || turn.question, recency);
    if (tuning.answerWeight > 0) add(plainAnswer(turn.answerMd), recency * tuning.answerWeight);
  });
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, tuning.carry)
    .map(([term]) => shown.get(term)!)
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text);
}

/** The answer's words without its citations, links and markup (their slugs are not the answer's words). */
function plainAnswer(markdown: string): string {
  return markdown
    .replace(/\[\[[^\]]*\]\]/g, " ")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/[#*_`>[\]]/g, " ");
}
