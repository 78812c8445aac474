// Generation with a local model (Ollama): the grounding prompt and the reading of its reply.
import type { ChatMessage } from "../../ai/generator";
import type { RetrievedPage } from "../../retrieval";

/** The reply the model is told to give when the pages do not hold the answer. */
export const REFUSAL = "NOT_IN_PAGES";
/** Pages given to the model, and how much of each: a small local model's context is short. */
export const PROMPT_PAGES = 5;
const PAGE_CHARS = 3000;

const SYSTEM = [
  "You answer questions using ONLY the wiki pages given to you, never outside knowledge.",
  "After every sentence that states something from a page, cite that page with its tag exactly as given, in double square brackets, e.g. [[page-slug]].",
  `If the pages do not contain the answer, reply with exactly ${REFUSAL} and nothing else.`,
  "Answer concisely in the language of the question.",
].join(" ");

export function groundedMessages(question: string, pages: { ref: string; page: RetrievedPage }[]): ChatMessage[] {
  const context = pages
    .map(({ ref, page }) => `[[${ref}]] ${page.title}\n\n${clip(page.markdown, PAGE_CHARS)}`)
    .join("\n\n---\n\n");
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: `Wiki pages:\n\n${context}\n\n---\n\nQuestion: ${question}` },
  ];
}

/** The model declined: its reply is (or starts with) the refusal marker. */
export function isRefusal(reply: string): boolean {
  return reply.trim().replace(/^[`*"']+/, "").startsWith(REFUSAL);
}

/** While streaming, holds back text that could still turn out to be the refusal marker. */
export function couldBeRefusal(prefix: string): boolean {
  const t = prefix.trimStart().replace(/^[`*"']+/, "");
  return t.length < REFUSAL.length ? REFUSAL.startsWith(t) : t.startsWith(REFUSAL);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, text.lastIndexOf(" ", max) > max / 2 ? text.lastIndexOf(" ", max) : max)} …`;
}
