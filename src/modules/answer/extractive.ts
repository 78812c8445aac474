// The embedded answerer (no model needed): the best sentences of the retrieved pages, composed to read as
// a short passage: whole sentences only, grouped by page (the page of the best sentence first) and in each
// page's reading order, duplicates and near-duplicates dropped, one [[slug]] citation after each run of
// sentences from the same page. A "how do I" question answered by a numbered list gets the list's steps.
import type { RetrievedPage } from "../../retrieval";
import { holdsAnswerType, saysPlace } from "./answer-type";
import type { Evidence, ScoredSentence } from "./evidence";
import { stem, stemSet } from "./sentences";
import { unmentionedNote } from "./unmentioned";

const MAX_SENTENCES = 3;
const MAX_CHARS = 700;
/** Steps of a procedure quoted at most, and their length. */
const MAX_STEPS = 12;
const MAX_STEPS_CHARS = 1500;
/** A further sentence must score at least this share of the best one to be worth reading. */
const RELATIVE_FLOOR = 0.8;
/** Sentences sharing this share of their words (Jaccard) say the same thing: the second is dropped. */
const NEAR_DUPLICATE = 0.8;

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

/**
 * A question answered by a list: "how do I …" by a numbered one (a runbook's steps), "what are the risks …"
 * by the one under a heading naming them. The list whole, in order, when one of its items (`fits`) is among
 * the sentences worth reading. One item alone is half a procedure.
 */
function wholeList(evidence: Evidence, best: ScoredSentence, fits: (item: ScoredSentence) => boolean): ScoredSentence[] | null {
  const item = evidence.sentences.find((s) => s.score >= best.score * RELATIVE_FLOOR && s.list && fits(s));
  if (!item) return null;
  const steps = evidence.sentences
    .filter((s) => s.page === item.page && s.list?.id === item.list!.id)
    .sort((a, b) => a.index - b.index)
    .filter((s, i, all) => i === 0 || s.whole !== all[i - 1]!.whole) // an overlong item's pieces: quoted once, whole
    .slice(0, MAX_STEPS);
  let chars = 0;
  const fitting = steps.filter((s) => (chars += s.whole.length) <= MAX_STEPS_CHARS);
  return fitting.length >= 2 ? fitting : null;
}

/**
 * The column of a table that names the things a question asks to have listed (its header says them: "Carrier"
 * for "which carriers …"), when one of its rows is among the sentences worth reading and no row is singled
 * out by the question's words (every row holds as much of it): the question asks for them all. "Which hosts
 * run Proxmox?" is answered by the rows that say Proxmox, not by every host. "How many …" counts the rows
 * singled out, when some are ("How many days does Aisha work?" of a rota: the days of her rows).
 */
function tableColumn(evidence: Evidence, best: ScoredSentence, listed: string): { page: RetrievedPage; values: string[] } | null {
  const table = listedTable(evidence, best, listed);
  if (!table) return null;
  let { rows } = table;
  if (rows.some((r) => r.ownCoverage !== table.row.ownCoverage)) {
    // "How many days does Aisha work?": the rows the question's other words single out are the ones counted.
    if (!evidence.counting) return null;
    const most = Math.max(...rows.map((r) => r.ownCoverage));
    rows = rows.filter((r) => r.ownCoverage === most);
  }
  const values = table.valuesOf(rows);
  if (evidence.counting && values.length === 1) return { page: table.row.page, values };
  return values.length >= 2 ? { page: table.row.page, values } : null;
}

/**
 * The things of a table's listed column whose rows never say `without` (a stem), when some of its rows do: the
 * table is about it. "Which dishes are gluten-free?" of `| Dish | Contains |` is the dishes whose row lacks gluten.
 */
function rowsWithout(evidence: Evidence, best: ScoredSentence, listed: string, without: string): { page: RetrievedPage; values: string[] } | null {
  const table = listedTable(evidence, best, listed);
  if (!table) return null;
  const kept = table.rows.filter((r) => !r.table!.cells.some((cell) => stemSet(cell).has(without)));
  if (kept.length === 0 || kept.length === table.rows.length) return null;
  return { page: table.row.page, values: table.valuesOf(kept) };
}

/**
 * The table a header of which names the listed things, when one of its rows is among the sentences worth
 * reading: that row, all its rows in order, and how to read a set of rows' listed cells (distinct, non-empty).
 */
function listedTable(evidence: Evidence, best: ScoredSentence, listed: string) {
  const namesListed = (header: string) => stemSet(header).has(listed);
  const row = evidence.sentences.find((s) => s.score >= best.score * RELATIVE_FLOOR && s.table?.headers.some(namesListed));
  if (!row) return null;
  const rows = evidence.sentences.filter((s) => s.page === row.page && s.table?.id === row.table!.id).sort((a, b) => a.index - b.index);
  const at = row.table!.headers.findIndex(namesListed);
  const valuesOf = (some: ScoredSentence[]) => [...new Set(some.map((r) => r.table!.cells[at]!.trim()).filter((v) => v !== ""))];
  return { row, rows, valuesOf };
}

/**
 * A question whose two facts sit in two pages ("where was the architect who designed X born?"): the best
 * sentence names someone or something the question does not ("designed by Henrik Delacroix"), and another
 * page's sentence about that name covers question words the chosen sentences leave open ("born"). Link
 * expansion brings that page into the retrieved ones; this step reads the second hop from it. On the best
 * sentence's own page, a table row's name leads to the prose about it ("Does the Porto hotel have a lift?").
 */
function bridgeSentence(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence | null {
  const open = openTerms(evidence, chosen);
  if (open.length === 0) return null;
  const asked = new Set((evidence.terms ?? []).map(stem));
  const names = namesIn(best.whole).filter((name) => [...stemSet(name)].some((w) => !asked.has(w)));
  if (names.length === 0) return null;
  const pick = mostOpenCovered(
    evidence.sentences.filter((s) => !chosen.includes(s) && (s.page !== best.page ? names.some((n) => s.whole.includes(n)) : best.row && namesSubject(names, s))),
    open,
  );
  // Not for a who-question: a person is often named by a common noun ("The keepers … rescued eleven of the
  // crew"), which capitals cannot tell, and a sentence about another name holding a person only padded
  // such answers ("… built by the engineer Thomas Stevenson").
  if (pick || !evidence.expectedType || evidence.expectedType === "person") return pick;
  // No sentence about the name covers the open words, but the question asks for a kind of thing ("where does
  // the technical lead work?") that the best sentence holds only in the name itself ("Dev Raman is the
  // technical lead"): the best sentence about the name that holds it beyond the name ("Dev Raman is a staff
  // engineer in Berlin").
  const type = evidence.expectedType;
  const beyondNames = (text: string) => {
    const rest = names.reduce((t, n) => t.replaceAll(n, " "), text);
    return holdsAnswerType(rest, type, asked) && (type !== "place" || PLACE_CUE.test(rest));
  };
  if (beyondNames(best.whole)) return null;
  const about = evidence.sentences.filter((s) => s.page !== best.page && !chosen.includes(s) && names.some((n) => s.whole.includes(n)) && beyondNames(s.whole));
  // A sentence whose subject is the name ("Ada Quill was born in …") before one that names it in passing.
  return about.find((s) => names.some((n) => s.whole.startsWith(n))) ?? about[0] ?? null;
}

/**
 * The sentence right before or after the best one in its section, when it holds question words the chosen
 * sentences leave open: "Who leads Project Atlas?" is best matched by "Project Atlas kicked off on 3 March
 * 2025." and answered by the next one, "Priya Natarajan leads the project ...". Not across a heading: "Can I
 * take a taxi home?" of "Taxis are fine after 22:00", the last sentence under "Travel", is not also the
 * "home-office budget" opening "Home office". Nor, for a table row, the next row: another record.
 */
function neighbourSentence(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence | null {
  const open = openTerms(evidence, chosen);
  if (open.length === 0) return null;
  return mostOpenCovered(
    evidence.sentences.filter(
      (s) =>
        s.page === best.page && Math.abs(s.index - best.index) === 1 && s.section === best.section && s.whole !== best.whole && !chosen.includes(s) && !(best.row && s.row),
    ),
    open,
  );
}

/** The other rows of the best row's table that a comparing question names by their first cell. */
function comparedRows(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence[] {
  if (!evidence.comparing || !best.table) return [];
  const asked = new Set((evidence.terms ?? []).map(stem));
  return evidence.sentences.filter(
    (s) => s.page === best.page && s.table?.id === best.table!.id && !chosen.includes(s) && [...stemSet(s.table.cells[0] ?? "")].some((w) => asked.has(w)),
  );
}

/**
 * "How do I update the hosts?" of a section "## Updates" whose first sentence says when ("Hosts are updated on
 * the first Saturday of each month.") and the next ones how ("Reboot one node at a time …"): the sentences
 * right after the best one in a section named by the action asked for are its steps, though they do not
 * repeat the action's word.
 */
function sectionSteps(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence[] {
  const action = evidence.action;
  if (!evidence.procedural || action === null || best.section === undefined || best.list || !stemSet(best.section).has(action)) return [];
  const after = evidence.sentences.filter((s) => s.page === best.page && s.section === best.section && s.index > best.index && !s.list).sort((a, b) => a.index - b.index);
  const steps: ScoredSentence[] = [];
  let next = best.index + 1;
  for (const s of after) {
    if (s.index !== next++) break; // the run right after it only
    if (!chosen.includes(s)) steps.push(s);
  }
  return steps;
}

/** The sentence right before or after the best one (in its list, when it is an item), holding the kind asked for that the best one lacks. */
function typedNeighbour(evidence: Evidence, best: ScoredSentence): ScoredSentence | null {
  // Times and quantities only: a capitalized word is too weak a sign of a person or a place ("… by the dukes").
  if (best.typeFound !== false || (evidence.expectedType !== "time" && evidence.expectedType !== "quantity")) return null;
  const beside = evidence.sentences.filter((s) => s.page === best.page && Math.abs(s.index - best.index) === 1 && s.typeFound === true && s.list?.id === best.list?.id && !s.row === !best.row);
  const near = beside.sort((a, b) => a.index - b.index).find((s) => s.index > best.index) ?? beside[0];
  if (near) return near;
  // Else the page's best sentence that has it, when it is worth reading: "When do backups run?" of a page
  // whose restore step says "the host the VM ran on" and whose first sentence "… at 02:00 each night".
  return evidence.sentences.find((s) => s.page === best.page && s.typeFound === true && s.score >= best.score * RELATIVE_FLOOR) ?? null;
}

/** A sentence opening with a personal pronoun. */
const PERSON_PRONOUN = /^(?:he|she|they|his|her|their)\b/i;

/**
 * A sentence about a thing it does not name: opening with "it", or "this" as a pronoun ("It prints the
 * version.", "This means …"; not "These terms are …"), or an instruction done to "it" ("Run it first when
 * something fails.", "Raise it with `ulimit -n 4096`").
 */
const THING_PRONOUN =
  /^(?:it|its)\b|^(?:this|these|that)\s+(?:is|are|was|were|means|meant|has|have|had|can|could|will|would|may|must|should|does|do|did|also|only|includes?|applies|apply|happens|takes?|gives?|makes?)\b|^\p{L}+ it\b(?! (?:is|was|will|may|can|does|did|has)\b)/iu;

/** The sentence before `s` on its page, when `s` opens with a pronoun: who or what it is, most often. */
function antecedentOf(evidence: Evidence, s: ScoredSentence, best: ScoredSentence): ScoredSentence | null {
  if (s.index === 0) return null;
  const person = PERSON_PRONOUN.test(s.text);
  if (!person && !THING_PRONOUN.test(s.text)) return null;
  // A thing's pronoun within its section only: "Run it first when something fails." is `tern doctor`'s, said
  // just before; across a heading "it" is rarely the last section's subject. A sentence before that holds nothing
  // asked is no part of the answer unless "it" is what is asked about (the best sentence, of a question not
  // asking what a thing is): "Its collection includes … a model of the Oriel", quoted for "Where was the Oriel
  // going?", or the best for "What is the Fresnel lens?", is read without "Admission is £6 for adults …".
  const holdsAsked = (p: ScoredSentence) => {
    const words = stemSet(p.whole);
    return evidence.terms.some((t) => words.has(stem(t)));
  };
  const wanted = (p: ScoredSentence) => (s === best && !evidence.defining) || holdsAsked(p);
  return evidence.sentences.find((p) => p.page === s.page && p.index === s.index - 1 && (person || (p.section === s.section && wanted(p)))) ?? null;
}

/** Whether the sentence's page title or section heading names a term of the question. */
function namedAbove(evidence: Evidence, s: ScoredSentence): boolean {
  const above = stemSet(`${s.page.title ?? ""} ${s.section ?? ""}`);
  return evidence.terms.some((t) => above.has(stem(t)));
}

/** Whether a page's title names every term of the question. */
function titleNamesAll(evidence: Evidence, page: RetrievedPage): boolean {
  const title = stemSet(page.title ?? "");
  return evidence.terms.length > 0 && evidence.terms.every((t) => title.has(stem(t)));
}

/** Whether the sentence's own words hold a question term its page's title does not name (true when the title names them all). */
function holdsFocus(evidence: Evidence, s: ScoredSentence): boolean {
  const title = stemSet(s.page.title ?? "");
  const focus = [...new Set((evidence.terms ?? []).map(stem))].filter((t) => !title.has(t));
  if (focus.length === 0) return true;
  const words = stemSet(s.whole);
  return focus.some((t) => words.has(t));
}

/**
 * Whether `other` holds at least as many of the question's terms the best sentence leaves open as it lacks of
 * the ones the best holds: the other side of a comparison ("the C1 or the F1"), not a "Primary care visit" row
 * beside the "Emergency room" one for "an emergency room visit".
 */
function completes(evidence: Evidence, best: ScoredSentence, other: ScoredSentence): boolean {
  const open = openTerms(evidence, [best]);
  const words = stemSet(other.whole);
  const held = stemSet(best.whole);
  const adds = open.filter((t) => words.has(t)).length;
  const lacks = [...new Set(evidence.terms.map(stem))].filter((t) => held.has(t) && !words.has(t)).length;
  return adds > 0 && adds >= lacks;
}

/** The question's terms (stems) that neither the chosen sentences nor their pages' titles hold. */
function openTerms(evidence: Evidence, chosen: ScoredSentence[]): string[] {
  const covered = new Set(chosen.flatMap((c) => [...stemSet(c.whole), ...stemSet(c.page.title ?? "")]));
  return [...new Set((evidence.terms ?? []).map(stem))].filter((t) => !covered.has(t));
}

/** The candidate holding the most of the `open` terms (the first of equals), or null when none holds any. */
function mostOpenCovered(candidates: ScoredSentence[], open: string[]): ScoredSentence | null {
  let pick: ScoredSentence | null = null;
  let pickOpen = 0;
  for (const s of candidates) {
    const words = stemSet(s.whole);
    const held = open.filter((t) => words.has(t)).length;
    if (held > pickOpen) [pick, pickOpen] = [s, held];
  }
  return pick;
}

/** A place is named after a preposition of place ("in Berlin", "from Bangalore"). */
const PLACE_CUE = /\b(?:in|at|from|near)\s+(?:the\s+)?\p{Lu}/u;

/**
 * Whether one of the names is what the sentence is about (it opens the sentence): on the page of a table row,
 * the prose about the row's name ("Ribeira Guest House has no lift" of its Hotels row).
 */
const namesSubject = (names: string[], s: ScoredSentence) => !s.row && names.some((n) => s.whole.replace(/^(?:The|A|An)\s+/, "").startsWith(`${n} `));

/** Runs of capitalized words (a name such as "Henrik Delacroix"), without a leading article. */
function namesIn(text: string): string[] {
  const runs = text.match(/\p{Lu}[\p{L}'’-]*(?:\s+(?:of\s+|de\s+|van\s+|von\s+)?\p{Lu}[\p{L}'’-]*)*/gu) ?? [];
  return runs.map((r) => r.replace(/^(The|A|An|In|On|At|By|This|That)\s+/, "")).filter((r) => r.length > 2 && !/^(The|A|An|In|On|At|By|This|That)$/.test(r));
}

/** Pages in the order their first chosen sentence was chosen; sentences in reading order; a citation per run. */
function compose(chosen: ScoredSentence[], refOf: (page: RetrievedPage) => string): string {
  const pageOrder = [...new Set(chosen.map((s) => s.pageRank))];
  const ordered = [...chosen].sort((a, b) => pageOrder.indexOf(a.pageRank) - pageOrder.indexOf(b.pageRank) || a.index - b.index);
  const parts: string[] = [];
  ordered.forEach((s, i) => {
    // A sentence whose heading holds what is asked (a changelog item's release date) is read with it, once.
    const heading = s.heading !== undefined && ordered[i - 1]?.heading !== s.heading ? `${s.heading}: ` : "";
    parts.push(heading + withStop(s.whole));
    const next = ordered[i + 1];
    if (!next || next.pageRank !== s.pageRank) parts.push(`[[${refOf(s.page)}]]`);
  });
  return parts.join(" ");
}

function sameThing(a: ScoredSentence, b: ScoredSentence): boolean {
  if (a.whole === b.whole) return true;
  const x = stemSet(a.whole);
  const y = stemSet(b.whole);
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared || 1) >= NEAR_DUPLICATE;
}

/**
 * A sentence ends as written, or with a full stop; a label ending in a colon introduces what follows it. A
 * closing bracket or quote ends it only after its own stop ("(see below.)"): a table row ending in "(the URL
 * is logged)" ran into the next row.
 */
const withStop = (text: string) => (/[.!?…。！？:]["”'’)\]]*$/.test(text) ? text : `${text}.`);
