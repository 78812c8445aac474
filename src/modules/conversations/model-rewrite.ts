// With a model, the follow-up is rewritten by it: a short prompt, the earlier turns (answers shortened), a
// deadline, and a check of what comes back. Anything else than one plausible question (an error, a timeout,
// an answer instead of a question, a reply far longer than the turn) gives the extractive rewrite.
import type { ChatMessage, Generator } from "../../ai/generator";
import type { Logger } from "../../lib/log";
import { queryTerms } from "../../retrieval/terms";
import { extractiveRewrite, type PriorTurn } from "./rewrite";

/** An answer is shown to the model up to this many characters: enough to name what it was about. */
const ANSWER_CHARS = 400;
/** A rewrite longer than this (or than 4× the turn plus room for the names it adds) is not a question. */
export const MAX_REWRITE_CHARS = 400;

export const REWRITE_SYSTEM_PROMPT =
  "You rewrite the last question of a conversation so that it can be understood without the conversation. " +
  "Replace pronouns and references (he, she, it, that team, the other one) with what they refer to, and add what the question leaves out. " +
  "Keep its language and meaning; do not answer it. If it already stands alone, repeat it unchanged. " +
  "Reply with the rewritten question only, on one line.";

export function rewriteMessages(question: string, history: readonly PriorTurn[]): ChatMessage[] {
  const lines = history.flatMap((turn) => [`Q: ${turn.question}`, `A: ${shorten(turn.answerMd.replace(/\[\[([^\]]*)\]\]/g, "$1"), ANSWER_CHARS)}`]);
  return [
    { role: "system", content: REWRITE_SYSTEM_PROMPT },
    { role: "user", content: `Conversation:\n${lines.join("\n")}\n\nLast question: ${question}\n\nStandalone question:` },
  ];
}

export interface ModelRewriteOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  log: Logger;
}

/** The model's rewrite when it gives a usable one; otherwise the extractive rewrite. A caller's abort stays an abort. */
export async function modelRewrite(generator: Generator, question: string, history: readonly PriorTurn[], opts: ModelRewriteOptions): Promise<string> {
  if (history.length === 0) return question;
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  try {
    const reply = await generator.chat(rewriteMessages(question, history), {
      signal: opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline,
      temperature: 0,
    });
    const rewritten = usableRewrite(reply, question, history);
    if (rewritten) return rewritten;
    opts.log.warn("the model's rewrite of a follow-up was not a question; rewriting extractively", { reply: shorten(reply, 200) });
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    opts.log.warn("the model did not rewrite a follow-up; rewriting extractively", { error: deadline.aborted ? `no reply within ${opts.timeoutMs} ms` : String((e as Error)?.message ?? e) });
  }
  return extractiveRewrite(question, history);
}

/**
 * The reply as a standalone question, or null: its first line without a label or quotes; short; with content
 * words, at least one of them from the turn or the history (a reply about something else is garbage); no
 * citations (that is an answer, not a question).
 */
export function usableRewrite(reply: string, question: string, history: readonly PriorTurn[]): string | null {
  const line = (reply ?? "")
    .trim()
    .split(/\r?\n/)[0]!
    .replace(/^\s*(?:standalone question|rewritten question|question)\s*:\s*/i, "")
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "")
    .trim();
  if (!line || line.includes("[[") || line.length > Math.min(MAX_REWRITE_CHARS, 4 * question.length + 120)) return null;
  const terms = queryTerms(line);
  if (terms.length === 0) return null;
  const known = new Set([question, ...history.flatMap((t) => [t.question, t.standaloneQuestion, t.answerMd])].flatMap((text) => queryTerms(text)));
  return terms.some((t) => known.has(t)) ? line : null;
}

function shorten(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1)}…`;
}
