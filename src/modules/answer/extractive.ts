// The embedded answerer (no model needed): the best sentences of the retrieved pages, composed to read as
// a short passage: whole sentences only, grouped by page (the page of the best sentence first) and in each
// page's reading order, duplicates and near-duplicates dropped, one [[slug]] citation after each run of
// sentences from the same page. A "how do I" question answered by a numbered list gets the list's steps.
import type { RetrievedPage } from "../../retrieval";
import { saysPlace } from "./answer-type";
import { compose, sameThing, withStop } from "./compose";
import type { Evidence, ScoredSentence } from "./evidence";
import { antecedentOf, bridgeSentence, comparedRows, completes, holdsFocus, namedAbove, neighbourSentence, sectionSteps, titleNamesAll, typedNeighbour } from "./extractive-companions";
import { RELATIVE_FLOOR, rowsWithout, tableColumn, wholeList } from "./extractive-lists";
import { stemSet } from "./sentences";
import { unmentionedNote } from "./unmentioned";


const MAX_SENTENCES = 3;
const MAX_CHARS = 700;

export function extractiveAnswer(evidence: Evidence, refOf: (page: RetrievedPage) => string): string {
  const answer = quoted(evidence, refOf);
  // "Is there a GraphQL API?" of pages that never say GraphQL: what they say is not an answer to it.
  return answer && evidence.unmentioned.length > 0 ? `${unmentionedNote(evidence.unmentioned)}\n\n${answer}` : answer;
}

/** The sentences (or list, or table column) that answer the question, cited. */
function quoted(evidence: Evidence, refOf: (page: RetrievedPage) => string): string {
  const [best] = evidence.sentences;
  if (!best) return "";
  // Numbered steps are this question's only when their page or section names a word of it: "How do I open a
  // ticket?" is the service desk's sentence, not the VPN set-up whose second step opens one, and "How do I
  // restart the tunnel?" the VPN page's troubleshooting, not its "Setting up" steps ("Turn on the tunnel …").
  const steps = evidence.procedural ? wholeList(evidence, best, (s) => s.list!.ordered && namedAbove(evidence, s)) : null;
  if (steps) return `${steps.map((s, i) => `${i + 1}. ${withStop(s.whole)}`).join("\n")} [[${refOf(steps[0]!.page)}]]`;
  // "What are the consequences of …?" of a decision record's "## Consequences" list: the list, whole.
  const listed = evidence.listed;
  const items = listed ? wholeList(evidence, best, (s) => s.under?.has(listed) === true) : null;
  // "How many …?" of such a list or column: how many it holds, then what.
  const count = (n: number) => (evidence.counting ? `${n}:\n` : "");
  if (items) return `${count(items.length)}${items.map((s) => `- ${withStop(s.whole)}`).join("\n")} [[${refOf(items[0]!.page)}]]`;
  // "Which carriers are supported?" of a page whose table has a row per carrier: the table's "Carrier" column.
  // "Which dishes are gluten-free?" of an allergen table: the rows that do not say gluten.
  const free = listed && evidence.without ? rowsWithout(evidence, best, listed, evidence.without) : null;
  if (free) return `${free.values.map((v) => `- ${v}`).join("\n")} [[${refOf(free.page)}]]`;
  const column = listed ? tableColumn(evidence, best, listed) : null;
  if (column) return `${count(column.values.length)}${column.values.map((v) => `- ${v}`).join("\n")} [[${refOf(column.page)}]]`;
  // "Which ADR replaced Kafka?" of the page "ADR-005: Replace Kafka with NATS JetStream": the page is the answer.
  if (evidence.identifying && titleNamesAll(evidence, best.page)) {
    const about = evidence.sentences.find((s) => s.page === best.page && s.ownCoverage > 0 && !s.list);
    return `${withStop(best.page.title)}${about ? ` ${withStop(about.whole)}` : ""} [[${refOf(best.page)}]]`;
  }
  const chosen: ScoredSentence[] = [best];
  const answered = best.complete || holdsFocus(evidence, best);
  let chars = best.whole.length;
  const fits = (s: ScoredSentence) => chars + s.whole.length <= MAX_CHARS && !chosen.some((c) => sameThing(c, s));
  const take = (s: ScoredSentence) => {
    chosen.push(s);
    chars += s.whole.length;
  };
  // The best sentence without the kind asked for is read with the one beside it that has it: "When was
  // ADR-005 accepted?" is "Status: Accepted. Date: 2025-11-20.", not the status alone.
  const typed = typedNeighbour(evidence, best);
  if (typed) take(typed);
  // Once the best sentence does the action a "how do I" asks for, one that does not is no part of how ("How do
  // I roll an API key?" is not also "Keys are created in the dashboard").
  const action = evidence.action;
  const bestActs = action !== null && stemSet(best.whole).has(action);
  const offAction = (s: ScoredSentence) => bestActs && !stemSet(s.whole).has(action!);
  // Once the best sentence (or it with that one) says all that is asked with the kind of answer asked for (a
  // name for "who"), one without that kind adds nothing: "Who is the practice manager?" is "Grace Mbeki:
  // Practice manager.", not also "Leave requests go to the practice manager …".
  // A place said as one ("Location: London") is that kind for "where": a sentence merely naming capitalized
  // names ("Attendees: Maya Chen, Omar Haddad") is then without it.
  const placeSaid = (s: ScoredSentence) => evidence.expectedType === "place" && saysPlace(s.text);
  const untyped = (s: ScoredSentence) => best.complete && (best.typeFound === true || typed !== null) && (s.typeFound === false || (placeSaid(best) && !placeSaid(s)));
  // Once the best sentence holds the measure asked for, one without a measure adds none of it, whatever else it
  // names ("How tall is the lighthouse?" is "The tower is 31 metres tall …", not also "Wray … designed harbours
  // and lighthouses", from the best-ranked page).
  const unmeasured = (s: ScoredSentence) => evidence.measured && best.typeFound === true && s.typeFound === false;
  for (const s of evidence.sentences.slice(1)) {
    if (chosen.length >= MAX_SENTENCES || s.score < best.score * RELATIVE_FLOOR) break;
    if (!fits(s)) continue;
    // A sentence of the best one's page that holds nothing asked beyond the page's title adds nothing once the
    // best one answers (shorter answers, nothing lost on the evaluations).
    // Nor does another row of a table whose one row holds all that is asked ("the default read timeout" is the
    // read_timeout row, not every timeout's).
    if (answered && s.page === best.page && !s.complete && ((best.complete && best.row && s.row) || !holdsFocus(evidence, s))) continue;
    // A row is one record: a row whose cells, or cells and headers, hold less of the question than a row of its
    // page already chosen, and not what that one leaves open, is another record ("Which hotel are we staying at
    // in Porto?" is the Hotels row of Porto, not a flight's row to Porto; "What is the deductible on the PPO?"
    // the Deductible rows, not the premiums' under the same "Standard PPO" header; "Which is cheaper, the C1 or
    // the F1?" is both models' rows).
    const rowBefore = s.row ? chosen.find((c) => c.row && c.page === s.page) : undefined;
    if (rowBefore && (s.coverage < rowBefore.coverage || s.ownCoverage < rowBefore.ownCoverage) && !completes(evidence, rowBefore, s)) continue;
    // Nor, once the best one says all that is asked itself, one that says none of it (ranked for its title's words).
    if (s.page === best.page && best.ownCoverage >= 1 && s.ownCoverage === 0) continue;
    if (untyped(s)) continue;
    // Nor, once the best one holds the kind asked for, one without it that holds no more of the question ("Who is
    // working on Saturday?" is the rota's row, not also "Tuesday to Saturday 12:00–22:30.").
    if (best.typeFound === true && s.typeFound === false && s.coverage <= best.coverage) continue;
    if (unmeasured(s)) continue;
    // Nor, once the best one says all that is asked (with the kind of answer asked for), another page's sentence
    // that says only part of it ("When was Ada Quill born?" is her birth, not also her tutor's page naming her
    // with a year); once it holds that kind for sure, nor its own page's ("Where are the primers kept?" is the
    // box they are kept in, not also the step that pipettes them).
    if (best.complete && (best.typeFound === true || (best.typeFound !== false && s.page !== best.page)) && !s.complete) continue;
    if (offAction(s)) continue;
    // "What is Brightpay?" answered by "Brightpay is a payment platform …" is not also "Payments … go through Brightpay".
    if (best.defines === 2 && s.defines === 0) continue;
    // Nor is "Who is Lena Fischer?" a list of names she is one of ("Attendees: Omar Haddad, Lena Fischer.").
    if (evidence.defining && s.nameList) continue;
    take(s);
  }
  for (const step of sectionSteps(evidence, best, chosen)) if (chosen.length < MAX_SENTENCES && fits(step)) take(step);
  // "Which is cheaper, the C1 or the F1?": the cheaper one's row, and the other's to compare it with.
  for (const row of comparedRows(evidence, best, chosen)) if (fits(row)) take(row);
  // The best-ranked page is the likeliest source of the answer: when no chosen sentence comes from it, its
  // best sentence is added if there is room (measured: +2 gold pages cited of 150 on ClapNQ, none lost). Not
  // once the best defines what "Who is Kasim?" asks about, a sentence naming it in passing ("… and Kasim leads
  // them home by the northern wells").
  const fromTop = evidence.sentences.find((s) => s.pageRank === 0 && !(evidence.defining && s.nameList) && !(best.defines === 2 && s.defines === 0));
  if (fromTop && !chosen.some((c) => c.pageRank === 0) && chosen.length < MAX_SENTENCES && fits(fromTop) && !untyped(fromTop) && !unmeasured(fromTop) && !offAction(fromTop)) take(fromTop);
  const bridge = bridgeSentence(evidence, best, chosen);
  if (bridge && chosen.length < MAX_SENTENCES + 1 && fits(bridge) && !offAction(bridge)) take(bridge);
  // The sentence after the best one often completes it (more answers found on eval-squad2, a little longer).
  const next = neighbourSentence(evidence, best, chosen);
  if (next && chosen.length < MAX_SENTENCES + 1 && fits(next) && !offAction(next)) take(next);
  // A sentence about "he" or "she" is read with the one naming them ("Who runs the Saturday clinic?" is
  // "Dr. Tom Elliot: Associate dentist. He runs the Saturday clinic.", not "He runs …"): who the pronoun is
  // was the answer, and set after another page's or person's sentence it read as theirs.
  for (const s of [...chosen]) {
    const named = antecedentOf(evidence, s, best);
    if (named && !chosen.includes(named) && fits(named)) take(named);
  }
  // (A name no page mentions says the same of the whole answer, first: extractiveAnswer.)
  const unsaid = evidence.unmentioned.length === 0 ? kindUnsaid(evidence, chosen) : null;
  return `${unsaid ? `The closest pages do not say ${unsaid}; they say:\n\n` : ""}${compose(chosen, refOf)}`;
}

/**
 * What a question for an amount asks ("how much", "how many") when none of the sentences quoted holds one:
 * "How much did the lighthouse cost to build?" of the engineer's page. The quote is still the closest the
 * brain comes (not `thin`: the thin bar is fitted on the evidence, thin.ts), said as that. Measured on the
 * evaluation sets' answered questions: 0-3% of ClapNQ's unanswerable ones, none of its answerable ones, one
 * SQuAD answerable question of 546 ("How much of the lake …": "a small fraction"). Not for "when": ClapNQ's
 * answerable "when" questions are often answered by an event or a condition, and a time found was no sign
 * (4-6% of them would have been told so, as many as of its unanswerable ones); nor a name or a place, told apart
 * from other capitalized words too loosely.
 */
function kindUnsaid(evidence: Evidence, chosen: ScoredSentence[]): string | null {
  return evidence.kindAsked !== null && chosen.every((s) => s.typeFound === false) ? evidence.kindAsked : null;
}
