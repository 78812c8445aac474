// Follow-up questions (issue 59), on CANARD's hand-written rewrites of QuAC dialogs (scripts/data/canard,
// CC BY-SA 4.0). Each dialog's answers make one page ("Title: Section"); every dialog is asked on the
// unversioned surface in three ways: (a) as a conversation (the follow-up rewritten from the turns before),
// (b) each question alone (no rewrite), (c) CANARD's hand-written standalone question. A conversation opens
// with the dialog's topic ("Title: Section", what QuAC's asker was shown), not scored. Scored: the turns that
// refer back (CANARD's rewrite differs from the question) with a known answer. A hit: not thin, the gold
// page cited, and the answer holds most of the gold answer's words (GOLD_RECALL of its content words).
// Dialogs split by sha256(id) parity: even calibrate (`--calibrate` sweeps the extractive rewrite's tuning
// there), odd report.
//   bun scripts/eval-conversation.ts [--calibrate] [--half calibration|report|all] [--show N]
// --show N prints the first N scored turns: the question, what was searched, the hand-written rewrite, both answers.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractiveRewrite, REWRITE_TUNING, type PriorTurn, type RewriteTuning } from "../src/modules/conversations/rewrite";
import { queryTerms } from "../src/retrieval/terms";
import { loadSources, startEvalServer, type EvalServer } from "./eval-common";

interface Turn { no: number; question: string; rewrite: string; answer: string | null }
interface Dialog { id: string; title: string; section: string; turns: Turn[] }
const data = JSON.parse(readFileSync(join(import.meta.dir, "data/canard/canard-dev-subset.json"), "utf8")) as { dialogs: Dialog[] };

/** Share of the gold answer's content words the answer must hold. */
const GOLD_RECALL = 0.6;
const UNANSWERED = "I don't know.";
const half = (id: string) => (BigInt(`0x${createHash("sha256").update(id).digest("hex")}`) % 2n === 0n ? "calibration" : "report");
const arg = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const known = (answer: string | null): answer is string => answer !== null && answer !== UNANSWERED;
const scored = (t: Turn) => t.no > 1 && known(t.answer) && norm(t.rewrite) !== norm(t.question);
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
const opener = (d: Dialog) => `${d.title}: ${d.section}`;

interface Tally { turns: number; hits: number; gold: number; cited: number }
const tally = (): Tally => ({ turns: 0, hits: 0, gold: 0, cited: 0 });

function holdsGold(answerMd: string, gold: string): boolean {
  const words = new Set(queryTerms(answerMd));
  const goldTerms = queryTerms(gold);
  return goldTerms.length > 0 && goldTerms.filter((t) => words.has(t)).length / goldTerms.length >= GOLD_RECALL;
}

function score(into: Tally, answer: any, turn: Turn, goldSource: string) {
  const gold = !answer.thin && holdsGold(answer.answerMd, turn.answer!);
  const cited = !answer.thin && answer.citations.some((c: any) => c.documentId === goldSource);
  into.turns++;
  into.gold += gold ? 1 : 0;
  into.cited += cited ? 1 : 0;
  into.hits += gold && cited ? 1 : 0;
}

let shown = Number(arg("--show") ?? 0);
const brief = (answer: any) => `${answer.thin ? "thin" : answer.answerMd.replace(/\s+/g, " ").slice(0, 160)}`;

const server = await startEvalServer();
try {
  const { brain } = await server.api("/api/v1/brains", { name: "CANARD" });
  const docs = data.dialogs.map((d) => ({ externalId: d.id, title: opener(d), content: [...new Set(d.turns.map((t) => t.answer).filter(known))].join("\n\n") }));
  const sourceOf = await loadSources(server, brain.id, docs);
  const ask = (question: string, conversationId?: string) => server.api(`/api/brains/${brain.id}/ask`, { question, ...(conversationId ? { conversationId } : {}) });
  const halves = (arg("--half") ?? "all") === "all" ? ["calibration", "report"] : [arg("--half")!];

  if (process.argv.includes("--calibrate")) await calibrate(server, data.dialogs.filter((d) => half(d.id) === "calibration"), sourceOf, ask);
  for (const which of halves) {
    const dialogs = data.dialogs.filter((d) => half(d.id) === which);
    const [a, b, c] = [tally(), tally(), tally()];
    for (const d of dialogs) {
      const gold = sourceOf.get(d.id)!;
      const { conversationId } = await ask(opener(d));
      for (const turn of d.turns) {
        const inConversation = await ask(turn.question, conversationId);
        if (!scored(turn)) continue;
        score(a, inConversation, turn, gold);
        score(b, await ask(turn.question), turn, gold);
        const handWritten = await ask(turn.rewrite);
        score(c, handWritten, turn, gold);
        if (shown-- > 0) console.log(`  ${turn.question}\n    searched: ${inConversation.standaloneQuestion}\n    by hand:  ${turn.rewrite}\n    (a) ${brief(inConversation)}\n    (c) ${brief(handWritten)}`);
      }
    }
    report(`${which} half: ${dialogs.length} dialogs`, [["(a) follow-up, rewritten", a], ["(b) follow-up as asked", b], ["(c) hand-written standalone", c]]);
  }
} finally {
  await server.close();
}

function report(heading: string, rows: [string, Tally][]) {
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "-");
  const standalone = rows.at(-1)![1];
  console.log(`\n${heading}, ${standalone.turns} scored turns (they refer back and have an answer)`);
  console.log("| condition | hit (gold in answer and gold page cited) | gold in answer | gold page cited | hit ÷ (c) |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name, t] of rows) console.log(`| ${name} | ${pct(t.hits, t.turns)} | ${pct(t.gold, t.turns)} | ${pct(t.cited, t.turns)} | ${standalone.hits ? (t.hits / standalone.hits).toFixed(2) : "-"} |`);
}

/**
 * Tries tunings of the extractive rewrite one knob at a time from the shipped one, on the calibration half:
 * each conversation is replayed with the rewrite computed here (the server's own answers as its history,
 * as the conversation keeps them) and the standalone question asked.
 */
async function calibrate(server: EvalServer, dialogs: Dialog[], sourceOf: Map<string, string>, ask: (q: string) => Promise<any>) {
  const turnsKept = server.running.ctx.config.conversationTurns;
  const run = async (tuning: RewriteTuning) => {
    const t = tally();
    for (const d of dialogs) {
      const history: PriorTurn[] = [];
      const first = await ask(opener(d));
      history.push({ question: opener(d), standaloneQuestion: opener(d), answerMd: first.answerMd });
      for (const turn of d.turns) {
        const standaloneQuestion = extractiveRewrite(turn.question, history.slice(-turnsKept), tuning);
        const answer = await ask(standaloneQuestion);
        history.push({ question: turn.question, standaloneQuestion, answerMd: answer.answerMd });
        if (scored(turn)) score(t, answer, turn, sourceOf.get(d.id)!);
      }
    }
    return t;
  };
  const grid: Record<keyof RewriteTuning, number[]> = { carry: [2, 4, 6, 8], shortTurn: [0, 2, 4, 99], answerWeight: [0, 0.5, 1, 2], decay: [0.4, 0.6, 1] };
  let best = { ...REWRITE_TUNING };
  let bestHits = (await run(best)).hits;
  console.log(`calibration: shipped ${JSON.stringify(best)} → ${bestHits} hits`);
  for (const knob of Object.keys(grid) as (keyof RewriteTuning)[]) {
    for (const value of grid[knob]) {
      if (value === best[knob]) continue;
      const trial = { ...best, [knob]: value };
      const hits = (await run(trial)).hits;
      console.log(`  ${JSON.stringify(trial)} → ${hits} hits`);
      if (hits > bestHits) [best, bestHits] = [trial, hits];
    }
  }
  console.log(`calibration: best ${JSON.stringify(best)} → ${bestHits} hits`);
}
