// The service's side of a shaped answer (frame.ts, shapes/): the retriever a strategy looks pages up with,
// and a two-part question's two retrievals. Only the extractive path (no model) answers by shape.
import type { Retrieval, RetrievedPage, Retriever } from "../../retrieval";
import type { Evidence } from "./evidence";
import { extractiveAnswer } from "./extractive";
import { frameOf } from "./frame";
import { PROMPT_PAGES } from "./grounded";
import { ruleOn, RULES } from "./rules";
import type { AnswerInput, SourcedPage } from "./service";
import { ADVISOR_WEIGHT } from "./service";
import { asksChain, pageReader, shapedAnswer, shapedText, withSubjectOf } from "./shapes";
import { THIN_ANSWER } from "./thin";

type Gather = (brains: AnswerInput["brains"], text: string, limit: number) => Promise<{ retrieval: Retrieval; evidence: Evidence; pages: SourcedPage[]; thin: boolean }>;

export function shapedAnswers({ retriever, gather }: { retriever: Retriever; gather: Gather }) {
  /**
   * The answer of a question's shape (bridge, comparison, yes/no, two-part: frame.ts), reading the pages it
   * needs beyond the retrieved ones (`setPages` adds them to what is cited); null for a plain question, or
   * when its shape's strategy does not fit these pages.
   */
  async function shaped(input: AnswerInput, retrieval: Retrieval, wholeThin: boolean, setPages: (pages: RetrievedPage[]) => void, refOf: (page: RetrievedPage) => string) {
    const frame = frameOf(input.question);
    if (frame.shape === "plain" && !asksChain(frame)) return null;
    const scope = input.brains.map((b) => ({ id: b.id, weight: b.weight ?? (b.kind === "primary" ? 1 : ADVISOR_WEIGHT) }));
    if (frame.shape === "two-part") return ruleOn(RULES.twoPart) ? twoPart(input, frame.parts!, wholeThin, setPages, refOf) : null;
    const reader = pageReader(retrieval, (query) => retriever.retrieve({ brains: scope, query, limit: PROMPT_PAGES }));
    const result = await shapedAnswer(frame, reader);
    if (!result) return null;
    if (result.kind === "thin") return { text: THIN_ANSWER, generatedBy: "extractive", thin: true };
    setPages(reader.pages);
    return { text: shapedText(result, refOf), generatedBy: "extractive", thin: false };
  }

  /** Each part answered from its own retrieval; a part the pages do not answer is said so; thin when neither is. */
  async function twoPart(input: AnswerInput, parts: [string, string], wholeThin: boolean, setPages: (pages: RetrievedPage[]) => void, refOf: (page: RetrievedPage) => string) {
    const asked = [parts[0], withSubjectOf(parts[0], parts[1])];
    const found = await Promise.all(asked.map((part) => gather(input.brains, part, PROMPT_PAGES)));
    // Thin when neither part is answered, or when one is not and the whole question is thin too (one part
    // matched by chance in pages that answer neither).
    if (found.every((f) => f.thin) || (wholeThin && found.some((f) => f.thin))) return { text: THIN_ANSWER, generatedBy: "extractive", thin: true };
    const all: RetrievedPage[] = [];
    for (const f of found) for (const p of f.retrieval.pages) if (!all.some((q) => q.pageId === p.pageId)) all.push(p);
    setPages(all);
    const text = found.map((f, i) => (f.thin ? `The pages do not say: ${parts[i]}` : extractiveAnswer(f.evidence, refOf))).join("\n\n");
    return { text, generatedBy: "extractive", thin: false };
  }

  return shaped;
}
