// Ask as a conversation: the question box, this tab's answers (kept per brain or set in sessionStorage, so
// navigating away and back, or reloading, never empties the tab), the server's history of questions (paged,
// re-openable, clearable), streamed answers, and cited pages opening in the side panel.
import { API, ApiError, api, askStreaming } from "../lib/api.js";
import { announce, confirmDialog, field, fill, h, isTouch } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fmtDate } from "../lib/format.js";
import { drawPartial, renderAnswer } from "./answer.js";
import { citationPanel } from "./cite-panel.js";
import { conversationsCard, currentConversation, searchedLine, setCurrentConversation } from "./conversations.js";

export async function askTab(panel, brain, _rest, signal) {
  const belongs = (c) => c.brainId === brain.id && !c.setId;
  panel.append(askCard({ path: API.ask(brain.id), historyPath: API.asks(brain.id), scope: `brain:${brain.id}`, brainId: brain.id, signal, label: `Ask ${brain.name}`, belongs }));
}

// ---------------------------------------------------------------- this tab's answers
const TURNS_KEY = "brainbox.turns.";
const MAX_TURNS = 20;
const turnsOf = (scope) => {
  try {
    return JSON.parse(sessionStorage.getItem(TURNS_KEY + scope) ?? "[]");
  } catch {
    return [];
  }
};
function saveTurns(scope, turns) {
  const kept = turns.slice(0, MAX_TURNS);
  try {
    sessionStorage.setItem(TURNS_KEY + scope, JSON.stringify(kept));
  } catch {
    // Storage full: keep fewer answers rather than none.
    sessionStorage.setItem(TURNS_KEY + scope, JSON.stringify(kept.slice(0, 3)));
  }
}
export const forgetTurns = (scope) => sessionStorage.removeItem(TURNS_KEY + scope);

/**
 * A question box with a conversation of answers (newest first), the history and the side panel. Reused by
 * brain sets: `brains` (the set's brains, `{id, name, kind}`) switches to the set's [[ref]] citations.
 */
export function askCard({ path, historyPath, scope, brainId, signal, label, stream = true, brains = null, belongs = null }) {
  const question = h("textarea", { name: "question", required: true, rows: "3", placeholder: "What would you like to know?" });
  const box = errorBox();
  const stop = h("button", { type: "button", class: "secondary", hidden: true }, "Stop");
  const form = h(
    "form",
    { class: "stack" },
    field(label, question, isTouch() ? null : "Ctrl+Enter to ask"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Ask"), stop),
    box,
  );
  question.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  const conversation = h("div", { class: "conversation stack", "aria-label": "Answers", role: "region" });
  const { panel: sidePanel, open: openCitation } = citationPanel(signal);
  // A stored answer from the history opens as a turn of the conversation, as it was answered.
  const reopen = (a) => {
    const view = turnView({ id: a.id, question: a.question, askedAt: a.createdAt, result: { id: a.id, answerMd: a.answerMd, citations: a.citations, thin: a.thin } });
    conversation.prepend(view.article);
    return view.article;
  };
  const history = historyPath ? askHistory({ historyPath, scope, signal, question, conversation, reopen }) : null;
  // A continued conversation replaces this tab's answers with its turns (newest first, as asked here).
  const showConversation = (_c, serverTurns) => {
    turns = serverTurns
      .map((t) => ({ id: t.askId, question: t.question, askedAt: t.createdAt, result: { id: t.askId, answerMd: t.answerMd, citations: t.citations, thin: t.thin, standaloneQuestion: t.standaloneQuestion } }))
      .reverse();
    saveTurns(scope, turns);
    fill(conversation, ...turns.map((t) => turnView(t).article));
  };
  const conversations = belongs
    ? conversationsCard({ scope, signal, belongs, onOpen: showConversation, onNew: () => (forgetTurns(scope), (turns = []), fill(conversation)) })
    : null;

  let turns = turnsOf(scope);
  const turnView = (turn) => {
    const answer = h("div", { class: "answer prose", "aria-busy": "false" });
    const result = h("div", { class: "stack" });
    const article = h(
      "article",
      { class: "turn card stack", "data-ask-id": turn.id ?? null },
      h("h2", { class: "turn-question" }, h("span", { class: "visually-hidden" }, "Question: "), turn.question),
      turn.askedAt ? h("p", { class: "muted small" }, fmtDate(turn.askedAt)) : null,
      result,
    );
    const show = (res) => {
      renderAnswer(result, answer, res, { brainId, brains, openCitation });
      const searched = searchedLine(turn.question, res.standaloneQuestion);
      if (searched) result.prepend(searched);
    };
    if (turn.result) show(turn.result);
    return { article, answer, result, show };
  };
  for (const t of turns) conversation.append(turnView(t).article);

  let inflight = null;
  stop.addEventListener("click", () => inflight?.abort());
  signal.addEventListener("abort", () => inflight?.abort());

  onSubmit(form, box, async (fd) => {
    const q = String(fd.get("question") ?? "").trim();
    if (!q) throw new ApiError(0, "invalid_request", "Type a question first.", "question");
    inflight = new AbortController();
    const turn = { question: q, askedAt: new Date().toISOString() };
    const view = turnView(turn);
    view.answer.setAttribute("aria-busy", "true");
    fill(view.result, view.answer);
    conversation.prepend(view.article);
    stop.hidden = false;
    let text = "";
    let frame = 0;
    const draw = () => {
      frame = 0;
      drawPartial(view.answer, text, brainId, brains);
    };
    const send = (conversationId) =>
      stream
        ? askStreaming(path, q, {
            signal: inflight.signal,
            conversationId,
            onToken: (t) => {
              text += t;
              frame ||= requestAnimationFrame(draw);
            },
            onReset: () => {
              text = "";
              frame ||= requestAnimationFrame(draw);
            },
          })
        : api(path, { method: "POST", json: conversationId ? { question: q, conversationId } : { question: q }, signal: inflight.signal });
    try {
      const continued = belongs ? currentConversation(scope) : null;
      let res;
      try {
        res = await send(continued);
      } catch (e) {
        // The conversation was deleted (here or elsewhere): the question starts a new one.
        if (!(continued && e instanceof ApiError && e.status === 404)) throw e;
        setCurrentConversation(scope, null);
        text = "";
        res = await send(null);
      }
      cancelAnimationFrame(frame);
      if (belongs && res.conversationId) setCurrentConversation(scope, res.conversationId);
      view.show(res);
      conversations?.reload();
      turn.id = res.id ?? null;
      turn.result = res;
      if (turn.id) view.article.dataset.askId = turn.id;
      turns = [turn, ...turns];
      saveTurns(scope, turns);
      question.value = "";
      history?.reload();
      announce(res.thin ? `The ${brains ? "brains" : "brain"} could not answer this question.` : "Answer ready.");
    } catch (e) {
      cancelAnimationFrame(frame);
      if (e?.name === "AbortError") {
        draw();
        view.answer.append(h("p", { class: "muted small" }, "Stopped."));
        return;
      }
      view.article.remove();
      throw e;
    } finally {
      view.answer.setAttribute("aria-busy", "false");
      stop.hidden = true;
      inflight = null;
    }
  });
  return h(
    "div",
    { class: "ask-layout" },
    h("div", { class: "ask-main stack" }, h("section", { class: "card" }, form), conversation, conversations?.section, history?.section),
    sidePanel,
  );
}

/** The server's list of this scope's questions: newest first, "Show older", re-open, clear. */
function askHistory({ historyPath, scope, signal, question, conversation, reopen: reopenAnswer }) {
  const list = h("ol", { class: "history-list" });
  const more = h("button", { type: "button", class: "secondary small", hidden: true }, "Show older questions");
  const clear = h("button", { type: "button", class: "danger small", hidden: true }, "Clear history");
  const box = errorBox();
  const note = h("p", { class: "muted small" });
  const section = h(
    "section",
    { class: "card stack history", "aria-labelledby": `history-${scope}` },
    h("div", { class: "row spread" }, h("h2", { id: `history-${scope}` }, "Earlier questions"), clear),
    note,
    box,
    list,
    more,
  );
  let cursor = null;
  const item = (a) => {
    const reopen = h("button", { type: "button", class: "link" }, a.question);
    reopen.addEventListener("click", () => {
      // An answer already in the conversation is shown again; a stored one opens as it was answered; an ask
      // recorded before answers were kept is put back in the box to ask again.
      let shown = a.id ? conversation.querySelector(`[data-ask-id="${CSS.escape(a.id)}"]`) : null;
      if (!shown && typeof a.answerMd === "string") shown = reopenAnswer(a);
      if (shown) {
        shown.scrollIntoView({ block: "start" });
        shown.classList.add("flash");
        setTimeout(() => shown.classList.remove("flash"), 1500);
        return;
      }
      question.value = a.question;
      question.focus();
      announce("Question put back in the box: press Ask to ask it again");
    });
    return h("li", { "data-ask-id": a.id }, reopen, h("span", { class: "muted small" }, ` · ${fmtDate(a.createdAt)}`), a.thin ? h("span", { class: "badge" }, "not answered") : null);
  };
  const load = async (append) => {
    try {
      const data = await api(`${historyPath}?limit=20${append && cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { signal });
      fill(box);
      if (!append) fill(list);
      list.append(...data.asks.map(item));
      cursor = data.nextCursor;
      more.hidden = !cursor;
      clear.hidden = !list.children.length;
      note.textContent = list.children.length ? "Your questions here, newest first. Pick one to see its answer again or to ask it again." : "No questions yet.";
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return (section.hidden = true); // an older server: no history
      showError(box, e);
    }
  };
  more.addEventListener("click", () => load(true));
  clear.addEventListener("click", async () => {
    if (!(await confirmDialog("Clear the history?", "Your questions here and their answers in this tab are removed. Questions already counted against your plan stay counted.", "Clear history"))) return clear.focus();
    try {
      await api(historyPath, { method: "DELETE", signal });
      forgetTurns(scope);
      fill(conversation);
      announce("History cleared");
      await load(false);
    } catch (e) {
      showError(box, e);
    }
  });
  load(false);
  return { section, reload: () => load(false) };
}
