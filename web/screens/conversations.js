// The Ask tab's conversations: which one this tab continues (kept per brain or set in sessionStorage), a
// "New conversation" button, and the server's list of this brain's (or set's) conversations to continue or
// delete. A follow-up's answer names the standalone question that was searched (asked.js shows it).
import { API, ApiError, api } from "../lib/api.js";
import { announce, confirmDialog, fill, h } from "../lib/dom.js";
import { errorBox, showError } from "../lib/forms.js";
import { fmtDate, plural } from "../lib/format.js";

const CURRENT_KEY = "brainbox.conversation.";

export const currentConversation = (scope) => sessionStorage.getItem(CURRENT_KEY + scope);
export function setCurrentConversation(scope, id) {
  if (id) sessionStorage.setItem(CURRENT_KEY + scope, id);
  else sessionStorage.removeItem(CURRENT_KEY + scope);
}

/** The line under a follow-up: what was searched, when the question was rewritten. */
export function searchedLine(question, standaloneQuestion) {
  if (!standaloneQuestion || standaloneQuestion === question) return null;
  return h("p", { class: "muted small standalone-question" }, "Searched as: ", h("q", {}, standaloneQuestion));
}

/**
 * The conversations card. `belongs(c)` says whether a listed conversation is this brain's or set's;
 * `onOpen(conversation, turns)` shows a continued one; `onNew()` empties the tab for a new one.
 */
export function conversationsCard({ scope, signal, belongs, onOpen, onNew }) {
  const list = h("ol", { class: "history-list conversation-list" });
  const box = errorBox();
  const note = h("p", { class: "muted small" });
  const more = h("button", { type: "button", class: "secondary small", hidden: true }, "Show older conversations");
  const fresh = h("button", { type: "button", class: "secondary small" }, "New conversation");
  const section = h(
    "section",
    { class: "card stack conversations", "aria-labelledby": `conversations-${scope}` },
    h("div", { class: "row spread" }, h("h2", { id: `conversations-${scope}` }, "Conversations"), fresh),
    note,
    box,
    list,
    more,
  );
  let cursor = null;

  const startNew = () => {
    setCurrentConversation(scope, null);
    onNew();
    markCurrent();
    announce("New conversation: your next question starts it");
  };
  fresh.addEventListener("click", startNew);

  const markCurrent = () => {
    const current = currentConversation(scope);
    for (const li of list.children) li.classList.toggle("current", li.dataset.conversationId === current);
  };

  const item = (c) => {
    const open = h("button", { type: "button", class: "link" }, c.title);
    const remove = h("button", { type: "button", class: "danger small", "aria-label": `Delete conversation: ${c.title}` }, "Delete");
    open.addEventListener("click", async () => {
      try {
        const data = await api(API.conversation(c.id), { signal });
        setCurrentConversation(scope, c.id);
        onOpen(data.conversation, data.turns);
        markCurrent();
        announce(`Continuing: ${c.title}`);
      } catch (e) {
        showError(box, e);
      }
    });
    remove.addEventListener("click", async () => {
      if (!(await confirmDialog("Delete this conversation?", "Its questions and answers are removed from the conversation list. Questions already counted against your plan stay counted.", "Delete"))) return remove.focus();
      try {
        await api(API.conversation(c.id), { method: "DELETE", signal });
        if (currentConversation(scope) === c.id) startNew();
        announce("Conversation deleted");
        await load(false);
      } catch (e) {
        showError(box, e);
      }
    });
    return h("li", { "data-conversation-id": c.id }, open, h("span", { class: "muted small" }, ` · ${plural(c.turns, "question")} · ${fmtDate(c.updatedAt)} `), remove);
  };

  const load = async (append) => {
    try {
      // The list is the caller's across brains: a page may hold none of this brain's, so read on until it does.
      let shown = 0;
      if (!append) {
        fill(list);
        cursor = null;
      }
      do {
        const data = await api(`${API.conversations}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { signal });
        const mine = data.conversations.filter(belongs);
        list.append(...mine.map(item));
        shown += mine.length;
        cursor = data.nextCursor;
      } while (cursor && shown === 0);
      fill(box);
      more.hidden = !cursor;
      note.textContent = list.children.length ? "Pick one to continue it: follow-up questions are read with its earlier questions." : "No conversations yet: your first question starts one.";
      markCurrent();
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return (section.hidden = true); // an older server
      showError(box, e);
    }
  };
  more.addEventListener("click", () => load(true));
  load(false);
  return { section, reload: () => load(false), startNew };
}
