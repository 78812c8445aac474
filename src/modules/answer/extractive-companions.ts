// The sentences read with the extractive answer's best one: the one that bridges to what it leaves open, the
// one after it, a compared row, a section's steps, the neighbour holding the kind asked for, the sentence
// naming who a pronoun is; and the tests of what a sentence holds of the question.
import type { RetrievedPage } from "../../retrieval";
import { holdsAnswerType } from "./answer-type";
import type { Evidence, ScoredSentence } from "./evidence";
import { RELATIVE_FLOOR } from "./extractive-lists";
import { stem, stemSet } from "./sentences";

/**
 * A question whose two facts sit in two pages ("where was the architect who designed X born?"): the best
 * sentence names someone or something the question does not ("designed by Henrik Delacroix"), and another
 * page's sentence about that name covers question words the chosen sentences leave open ("born"). Link
 * expansion brings that page into the retrieved ones; this step reads the second hop from it. On the best
 * sentence's own page, a table row's name leads to the prose about it ("Does the Porto hotel have a lift?").
 */
export function bridgeSentence(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence | null {
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
export function neighbourSentence(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence | null {
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
export function comparedRows(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence[] {
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
export function sectionSteps(evidence: Evidence, best: ScoredSentence, chosen: ScoredSentence[]): ScoredSentence[] {
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
export function typedNeighbour(evidence: Evidence, best: ScoredSentence): ScoredSentence | null {
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
export function antecedentOf(evidence: Evidence, s: ScoredSentence, best: ScoredSentence): ScoredSentence | null {
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
export function namedAbove(evidence: Evidence, s: ScoredSentence): boolean {
  const above = stemSet(`${s.page.title ?? ""} ${s.section ?? ""}`);
  return evidence.terms.some((t) => above.has(stem(t)));
}

/** Whether a page's title names every term of the question. */
export function titleNamesAll(evidence: Evidence, page: RetrievedPage): boolean {
  const title = stemSet(page.title ?? "");
  return evidence.terms.length > 0 && evidence.terms.every((t) => title.has(stem(t)));
}

/** Whether the sentence's own words hold a question term its page's title does not name (true when the title names them all). */
export function holdsFocus(evidence: Evidence, s: ScoredSentence): boolean {
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
export function completes(evidence: Evidence, best: ScoredSentence, other: ScoredSentence): boolean {
  const open = openTerms(evidence, [best]);
  const words = stemSet(other.whole);
  const held = stemSet(best.whole);
  const adds = open.filter((t) => words.has(t)).length;
  const lacks = [...new Set(evidence.terms.map(stem))].filter((t) => held.has(t) && !words.has(t)).length;
  return adds > 0 && adds >= lacks;
}

/** The question's terms (stems) that neither the chosen sentences nor their pages' titles hold. */
export function openTerms(evidence: Evidence, chosen: ScoredSentence[]): string[] {
  const covered = new Set(chosen.flatMap((c) => [...stemSet(c.whole), ...stemSet(c.page.title ?? "")]));
  return [...new Set((evidence.terms ?? []).map(stem))].filter((t) => !covered.has(t));
}

/** The candidate holding the most of the `open` terms (the first of equals), or null when none holds any. */
export function mostOpenCovered(candidates: ScoredSentence[], open: string[]): ScoredSentence | null {
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
export function namesIn(text: string): string[] {
  const runs = text.match(/\p{Lu}[\p{L}'’-]*(?:\s+(?:of\s+|de\s+|van\s+|von\s+)?\p{Lu}[\p{L}'’-]*)*/gu) ?? [];
  return runs.map((r) => r.replace(/^(The|A|An|In|On|At|By|This|That)\s+/, "")).filter((r) => r.length > 2 && !/^(The|A|An|In|On|At|By|This|That)$/.test(r));
}
