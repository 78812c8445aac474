// Grounded answers and context over one brain or several (a brain set's primary + advisors). Every surface
// that answers (v1 and unversioned ask, brain sets, the paid x402 ask, MCP tools) calls this service; each
// maps the one result to its own wire shape.
import { inArray } from "drizzle-orm";
import type { AppContext } from "../../context";
import { GeneratorUnavailableError, type Generator } from "../../ai/generator";
import type { Db } from "../../db/client";
import { pages as pagesTable } from "../../db/schema";
import { isStorageFull } from "../../lib/db-errors";
import type { Logger } from "../../lib/log";
import { newId } from "../../lib/secrets";
import { createRetriever, type RetrievedPage, type Retrieval, type Retriever } from "../../retrieval";
import { recordAsk, type AskSurface } from "./asks";
import { keepValidCitations } from "./citations";
import { weighEvidence, type Evidence, type EvidenceFeatures } from "./evidence";
import { extractiveAnswer } from "./extractive";
import { couldBeRefusal, groundedMessages, isRefusal, PROMPT_PAGES } from "./grounded";
import { GENERATOR_GATE, isThin, THIN_ANSWER, THIN_MODEL } from "./thin";
import { shapedAnswers } from "./shaped-answers";

export type BrainKind = "primary" | "advisor";

export interface AskBrain {
  id: string;
  name: string;
  kind: BrainKind;
  /** Preference multiplier of this brain's retrieval scores; default 1 for the primary, 0.8 for advisors. */
  weight?: number;
}

/** A retrieved page with the brain it comes from and the ref it is cited by in answers. */
export interface SourcedPage extends RetrievedPage {
  brain: AskBrain;
  /** What `[[...]]` names in answers: the slug, or `slug@brainId` when another brain's page took the slug. */
  ref: string;
}

export interface Citation {
  brain: AskBrain;
  pageId: number;
  slug: string;
  ref: string;
  title: string;
  /** The source the page was made from (the unversioned surface's `documentId`). */
  sourceId: string;
}

export interface ContextResult {
  /** Full markdown of the retrieved pages, each headed by its title and ref. */
  contextMd: string;
  pages: SourcedPage[];
  thin: boolean;
  retrieval: Retrieval["mode"];
  evidence: EvidenceFeatures;
}

export interface AnswerResult {
  /** The ask's id (saved in `asks` when `record` was given). */
  id: string;
  /** Markdown with `[[ref]]` citations, every one naming a page in `citations`. */
  answerMd: string;
  citations: Citation[];
  /** Slugs of the pages the answer was drawn from, best first. */
  retrievedSlugs: string[];
  pages: SourcedPage[];
  thin: boolean;
  /** `ollama:<model>` or `extractive`. */
  generatedBy: string;
  retrieval: Retrieval["mode"];
  evidence: EvidenceFeatures;
}

export interface AnswerInput {
  brains: AskBrain[];
  question: string;
  /** Streams the answer's text as it is produced (raw markdown with [[ref]]). */
  onToken?: (piece: string) => void;
  /** The text streamed so far is void (the model failed mid-answer); the fallback answer follows. */
  onReset?: () => void;
  signal?: AbortSignal;
  /** What to search and answer instead (a conversation's follow-up, rewritten); `question` is what is recorded. */
  standaloneQuestion?: string;
  /** Save the ask: who asked, through which surface. Omit to not record. */
  record?: { accountId: string | null; surface: AskSurface; setId?: string };
}

export interface AnswerService {
  context(input: { brains: AskBrain[]; query: string; limit?: number }): Promise<ContextResult>;
  answer(input: AnswerInput): Promise<AnswerResult>;
  /** The evidence numbers for a question (evaluation and calibration). */
  assess(input: { brains: AskBrain[]; question: string }): Promise<{ evidence: Evidence; thin: boolean; pages: SourcedPage[]; retrieval: Retrieval }>;
  readonly retriever: Retriever;
}

export const ADVISOR_WEIGHT = 0.8;
/** Pages returned as context (recall@5 is what the evaluation measures). */
export const CONTEXT_PAGES = 5;

interface Deps {
  db: Db;
  log: Logger;
  retriever: Retriever;
  /** Read per answer, like the embedder. */
  generator: () => Generator | null;
}

// One service per app context: the retriever holds the in-memory vector snapshots, shared by all surfaces.
const services = new WeakMap<AppContext, AnswerService>();

export function answerService(ctx: AppContext): AnswerService {
  let service = services.get(ctx);
  if (!service) {
    const retriever = createRetriever({ db: ctx.db, embedder: () => ctx.ai.embedder, log: ctx.log });
    service = createAnswerService({ db: ctx.db, log: ctx.log, retriever, generator: () => ctx.ai.generator });
    services.set(ctx, service);
  }
  return service;
}

export function createAnswerService(deps: Deps): AnswerService {
  const { db, retriever } = deps;

  async function gather(brains: AskBrain[], text: string, limit: number) {
    const retrieval = await retriever.retrieve({
      brains: brains.map((b) => ({ id: b.id, weight: b.weight ?? (b.kind === "primary" ? 1 : ADVISOR_WEIGHT) })),
      query: text,
      limit,
    });
    const evidence = weighEvidence(text, retrieval, retrieval.stats);
    return { retrieval, evidence, pages: withRefs(retrieval.pages, brains), thin: isThin(evidence.features) };
  }

  const shaped = shapedAnswers({ retriever, gather });

  return {
    retriever,

    async context({ brains, query, limit = CONTEXT_PAGES }) {
      const { retrieval, evidence, pages, thin } = await gather(brains, query, limit);
      return { contextMd: contextMarkdown(pages), pages, thin, retrieval: retrieval.mode, evidence: evidence.features };
    },

    async assess({ brains, question }) {
      const { evidence, thin, pages, retrieval } = await gather(brains, question, PROMPT_PAGES);
      return { evidence, thin, pages, retrieval };
    },

    async answer(asked) {
      const id = newId("ask");
      const input = { ...asked, question: asked.standaloneQuestion ?? asked.question }; // searched and answered; `asked.question` recorded
      const gathered = await gather(input.brains, input.question, PROMPT_PAGES);
      const { retrieval, evidence } = gathered;
      let pages = gathered.pages;
      const refOf = (page: RetrievedPage) => pages.find((p) => p.pageId === page.pageId)!.ref;

      // A model reads the pages and refuses by itself, so it sees every question past its looser gate.
      const generator = deps.generator();
      let draft: { text: string; generatedBy: string; thin: boolean } | null = generator ? null : await shaped(input, retrieval, isThin(evidence.features), (more) => (pages = withRefs(more, input.brains)), refOf);
      if (draft) {
        // A shaped answer (frame.ts) read the pages it needed; it decides thin itself.
      } else if (isThin(evidence.features, generator ? GENERATOR_GATE : THIN_MODEL)) draft = { text: THIN_ANSWER, generatedBy: "extractive", thin: true };
      else draft = await compose(deps, generator, input, evidence, pages, refOf);
      const byRef = new Map(pages.map((p) => [p.ref, p]));
      if (draft.thin) draft.text = THIN_ANSWER;
      if (draft.thin || draft.generatedBy === "extractive") streamWhole(input, draft.text);

      let { text, refs } = keepValidCitations(draft.text, (ref) => byRef.has(ref));
      // Pages can be deleted while the answer is written: their citations (and, if none is left, the answer) go.
      const alive = await existingPageIds(db, refs.map((r) => byRef.get(r)!.pageId));
      if (refs.some((r) => !alive.has(byRef.get(r)!.pageId))) {
        const kept = keepValidCitations(text, (ref) => alive.has(byRef.get(ref)!.pageId));
        if (kept.refs.length === 0) draft.thin = true;
        ({ text, refs } = draft.thin ? { text: THIN_ANSWER, refs: [] } : kept);
      }
      const thin = draft.thin;
      const citations = thin ? [] : refs.map((ref) => citationOf(byRef.get(ref)!));
      const answerMd = thin ? THIN_ANSWER : text;

      if (input.record) {
        const primary = input.brains.find((b) => b.kind === "primary") ?? input.brains[0]!;
        // The ask's history is bookkeeping: on a full disk the answer is still given (the quota, spent
        // before answering, is what must be exact), and the row is skipped and logged.
        await recordAsk(db, {
          id,
          accountId: input.record.accountId,
          brainId: primary.id,
          setId: input.record.setId ?? null,
          surface: input.record.surface,
          question: asked.question,
          thin,
          answerMd,
          citations: citations.map((c) => ({ brain: { id: c.brain.id, name: c.brain.name, kind: c.brain.kind }, slug: c.slug, ref: c.ref, title: c.title })),
        }).catch((e) => {
          if (!isStorageFull(e)) throw e;
          deps.log.warn("ask history not recorded: storage full; the answer is given", { ask: id, error: String((e as Error)?.message ?? e) });
        });
      }
      return {
        id,
        answerMd,
        citations,
        retrievedSlugs: pages.map((p) => p.slug),
        pages,
        thin,
        generatedBy: draft.generatedBy,
        retrieval: retrieval.mode,
        evidence: evidence.features,
      };
    },
  };
}

/** The model's grounded answer, or the extractive one when there is no model or it fails. */
async function compose(
  deps: Deps,
  generator: Generator | null,
  input: AnswerInput,
  evidence: Evidence,
  pages: SourcedPage[],
  refOf: (page: RetrievedPage) => string,
): Promise<{ text: string; generatedBy: string; thin: boolean }> {
  // Without the model, the extractive answerer's own (stricter) bar applies again.
  const extractive = () =>
    isThin(evidence.features)
      ? { text: THIN_ANSWER, generatedBy: "extractive", thin: true }
      : { text: extractiveAnswer(evidence, refOf), generatedBy: "extractive", thin: false };
  if (!generator) return extractive();
  const stream = input.onToken ? refusalAwareStream(input.onToken) : null;
  try {
    const reply = await generator.chat(groundedMessages(input.question, pages.map((page) => ({ ref: page.ref, page }))), {
      signal: input.signal,
      onToken: stream?.push,
      temperature: 0,
    });
    if (isRefusal(reply)) return { text: "", generatedBy: generator.name, thin: true };
    stream?.flush();
    if (!reply.trim()) throw new GeneratorUnavailableError("the model returned an empty answer");
    return { text: reply.trim(), generatedBy: generator.name, thin: false };
  } catch (e) {
    if (!(e instanceof GeneratorUnavailableError)) throw e;
    deps.log.warn("generation failed; answering extractively", { error: e.message });
    if (stream?.started()) input.onReset?.();
    return extractive();
  }
}

/** Forwards streamed pieces, except a prefix that may still become the refusal marker (never shown). */
function refusalAwareStream(onToken: (piece: string) => void) {
  let held = "";
  let open = false;
  return {
    push(piece: string) {
      if (open) return onToken(piece);
      held += piece;
      if (couldBeRefusal(held)) return;
      open = true;
      onToken(held);
    },
    flush() {
      if (!open && held && !isRefusal(held)) {
        open = true;
        onToken(held);
      }
    },
    started: () => open,
  };
}

/** The extractive and thin answers are streamed in sentence-sized pieces once known. */
function streamWhole(input: AnswerInput, text: string) {
  if (!input.onToken) return;
  for (const piece of text.match(/[^\s].*?(?:\]\]|[.!?]+)(?=\s|$)\s*|\S.*$/g) ?? [text]) input.onToken(piece);
}

async function existingPageIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: pagesTable.id }).from(pagesTable).where(inArray(pagesTable.id, ids));
  return new Set(rows.map((r) => r.id));
}

function withRefs(retrieved: RetrievedPage[], brains: AskBrain[]): SourcedPage[] {
  const brainById = new Map(brains.map((b) => [b.id, b]));
  const taken = new Set<string>();
  return retrieved.map((page) => {
    const ref = taken.has(page.slug) ? `${page.slug}@${page.brainId}` : page.slug;
    taken.add(ref);
    return { ...page, brain: brainById.get(page.brainId)!, ref };
  });
}

function citationOf(page: SourcedPage): Citation {
  return { brain: page.brain, pageId: page.pageId, slug: page.slug, ref: page.ref, title: page.title, sourceId: page.sourceId };
}

function contextMarkdown(pages: SourcedPage[]): string {
  return pages.map((p) => `# ${p.title}\n\nPage: [[${p.ref}]]\n\n${withoutTitleHeading(p.markdown.trim(), p.title)}`).join("\n\n---\n\n");
}

/** The page's markdown without an opening "# Title" heading that repeats its title (the context heads each page with it). */
function withoutTitleHeading(markdown: string, title: string): string {
  const first = /^#[ \t]+(.+?)[ \t#]*(?:\n|$)/.exec(markdown);
  return first && first[1]!.trim().toLowerCase() === title.trim().toLowerCase() ? markdown.slice(first[0].length).trimStart() : markdown;
}
