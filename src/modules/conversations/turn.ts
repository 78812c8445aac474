// One ask as a conversation's turn, for every surface that asks (v1 and unversioned brain ask, brain-set ask,
// MCP): the conversation is found before the question is metered (a wrong id spends nothing), the follow-up
// is rewritten from the last N turns before retrieval, and the answer is kept as the next turn. An ask
// without a conversationId starts a conversation, so every answer names one to continue.
import type { AppContext } from "../../context";
import { isStorageFull } from "../../lib/db-errors";
import type { AnswerResult } from "../answer/service";
import { modelRewrite } from "./model-rewrite";
import { extractiveRewrite, type PriorTurn } from "./rewrite";
import { appendTurn, lastTurns, ownConversation, startConversation, type ConversationScope } from "./service";

export interface OpenTurn {
  /** The standalone question to search for `question` (the question itself on a first turn). */
  standalone(question: string, signal?: AbortSignal): Promise<string>;
  /** Keeps the answered turn; returns the conversation's id (null: a new one could not be saved, the disk is full). */
  record(question: string, standaloneQuestion: string, result: AnswerResult): Promise<string | null>;
}

/** The fields every conversational answer adds to its surface's shape. */
export interface TurnFields {
  conversationId: string | null;
  standaloneQuestion: string;
}

export async function openTurn(ctx: AppContext, input: { accountId: string; scope: ConversationScope; conversationId?: string }): Promise<OpenTurn> {
  const existing = input.conversationId !== undefined ? await ownConversation(ctx.db, input.accountId, input.conversationId, input.scope) : null;
  const history: PriorTurn[] = existing ? await lastTurns(ctx.db, existing.id, ctx.config.conversationTurns) : [];
  return {
    async standalone(question, signal) {
      if (history.length === 0) return question;
      const generator = ctx.ai.generator;
      if (!generator) return extractiveRewrite(question, history);
      return modelRewrite(generator, question, history, { timeoutMs: ctx.config.rewriteTimeoutMs, signal, log: ctx.log });
    },
    async record(question, standaloneQuestion, result) {
      const turn = {
        askId: result.id,
        question,
        standaloneQuestion,
        answerMd: result.answerMd,
        citations: result.citations.map((c) => ({ brain: { id: c.brain.id, name: c.brain.name, kind: c.brain.kind }, slug: c.slug, ref: c.ref, title: c.title })),
        thin: result.thin,
      };
      try {
        if (existing) {
          await appendTurn(ctx.db, existing.id, turn);
          return existing.id;
        }
        return await startConversation(ctx.db, input.accountId, input.scope, turn);
      } catch (e) {
        // Like the ask history: on a full disk the answer is still given, without its turn.
        if (!isStorageFull(e)) throw e;
        ctx.log.warn("conversation turn not recorded: storage full; the answer is given", { conversation: existing?.id ?? null });
        return existing?.id ?? null;
      }
    },
  };
}

/** Asks one turn: rewrite, answer, record; the answer and the fields the surfaces add. */
export async function answerTurn(
  turn: OpenTurn,
  question: string,
  answer: (standaloneQuestion: string) => Promise<AnswerResult>,
  signal?: AbortSignal,
): Promise<{ result: AnswerResult; fields: TurnFields }> {
  const standaloneQuestion = await turn.standalone(question, signal);
  const result = await answer(standaloneQuestion);
  const conversationId = await turn.record(question, standaloneQuestion, result);
  return { result, fields: { conversationId, standaloneQuestion } };
}
