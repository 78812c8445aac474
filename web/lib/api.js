// The API client: every path in one place, fetch with the session's credential, readable errors, server-sent
// events for streamed answers, and uploads with progress. Two ways to be signed in: an email and password
// (the server's HttpOnly session cookie, sent by the browser itself: nothing here can read it), or an API key
// (kept in sessionStorage: this tab only, sent as a bearer).
import { jsonOr } from "./format.js";

const KEY_STORAGE = "brainbox.apiKey";
export const enc = encodeURIComponent;
export const API = {
  health: "/api/health",
  account: "/api/v1/account",
  adminAccounts: "/api/v1/admin/accounts",
  adminAccount: (id) => `/api/v1/admin/accounts/${enc(id)}`,
  brains: "/api/v1/brains",
  accessibleBrains: "/api/brains",
  brain: (id) => `/api/v1/brains/${enc(id)}`,
  sources: (id) => `/api/v1/brains/${enc(id)}/sources`,
  source: (id, sid) => `/api/v1/brains/${enc(id)}/sources/${enc(sid)}`,
  connectors: (id) => `/api/v1/brains/${enc(id)}/connectors`,
  connector: (id, cid) => `/api/v1/brains/${enc(id)}/connectors/${enc(cid)}`,
  connectorSync: (id, cid) => `/api/v1/brains/${enc(id)}/connectors/${enc(cid)}/sync`,
  reprocess: (id, sid) => `/api/v1/brains/${enc(id)}/sources/${enc(sid)}/reprocess`,
  uploadUrl: (id) => `/api/brains/${enc(id)}/sources/upload-url`,
  pages: (id) => `/api/v1/brains/${enc(id)}/pages`,
  page: (id, slug) => `/api/v1/brains/${enc(id)}/pages/${enc(slug)}`,
  ask: (id) => `/api/v1/brains/${enc(id)}/ask`,
  context: (id) => `/api/brains/${enc(id)}/context`,
  keys: "/api/user/api-keys",
  key: (id) => `/api/user/api-keys/${enc(id)}`,
  oauthGrants: "/api/user/oauth-grants",
  oauthGrant: (id) => `/api/user/oauth-grants/${enc(id)}`,
  mcpMetadata: "/.well-known/oauth-protected-resource/mcp",
  mcp: "/mcp",
  brainSets: "/api/v1/brain-sets",
  brainSet: (id) => `/api/v1/brain-sets/${enc(id)}`,
  brainSetAsk: (id) => `/api/v1/brain-sets/${enc(id)}/ask`,
  paid: (id) => `/api/v1/brains/${enc(id)}/paid`,
  bazaar: "/api/x402/bazaar",
  asks: (id) => `/api/v1/brains/${enc(id)}/asks`,
  setAsks: (id) => `/api/v1/brain-sets/${enc(id)}/asks`,
  conversations: "/api/v1/conversations",
  conversation: (id) => `/api/v1/conversations/${enc(id)}`,
  graph: (id) => `/api/v1/brains/${enc(id)}/graph`,
  revisions: (id, slug) => `/api/v1/brains/${enc(id)}/pages/${enc(slug)}/revisions`,
  payments: "/api/v1/payments",
  webSession: "/api/v1/web-session",
  session: "/api/v1/session",
  signOutEverywhere: "/api/v1/session/sign-out-everywhere",
  linkCheck: "/api/v1/password-links/check",
  linkRedeem: "/api/v1/password-links/redeem",
  webhooks: "/api/v1/webhooks",
  webhook: (id) => `/api/v1/webhooks/${enc(id)}`,
  webhookTest: (id) => `/api/v1/webhooks/${enc(id)}/test`,
  webhookDeliveries: (id) => `/api/v1/webhooks/${enc(id)}/deliveries`,
  backups: "/api/v1/admin/backups",
  backup: (id) => `/api/v1/admin/backups/${enc(id)}`,
  backupDownload: (id) => `/api/v1/admin/backups/${enc(id)}/download`,
  vaultExport: (id) => `/api/v1/brains/${enc(id)}/export`,
  vaultImport: (id) => `/api/v1/brains/${enc(id)}/import`,
};

export class ApiError extends Error {
  constructor(status, code, message, field, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.body = body;
  }
}
/** True when the server has no such route yet (a feature this server version does not offer). */
export const missingRoute = (e) => e instanceof ApiError && e.status === 404 && e.code === "route_not_found";

export function errorFrom(status, data, text) {
  const err = data && typeof data === "object" ? data.error : undefined;
  if (err && typeof err === "object") return new ApiError(status, err.code ?? `http_${status}`, err.message ?? `Request failed (${status})`, err.field, data);
  if (typeof err === "string") return new ApiError(status, `http_${status}`, err, undefined, data);
  const snippet = (text ?? "").trim().slice(0, 200);
  return new ApiError(status, `http_${status}`, snippet ? `Request failed (${status}): ${snippet}` : `Request failed (${status})`, undefined, data);
}

/** What the shell does when the session key stops being accepted (set once by the shell). */
let onUnauthorized = () => {};
export const whenUnauthorized = (fn) => (onUnauthorized = fn);

export const session = {
  get key() {
    return sessionStorage.getItem(KEY_STORAGE);
  },
  /** True while the server's session cookie signs this browser in (no key in the tab). */
  cookie: false,
  get signedIn() {
    return Boolean(this.key) || this.cookie;
  },
  account: null,
  usage: null,
  signIn(key) {
    sessionStorage.setItem(KEY_STORAGE, key);
  },
  signOut() {
    sessionStorage.removeItem(KEY_STORAGE);
    this.cookie = false;
    this.account = null;
    this.usage = null;
  },
};

/** The caller's role on a brain (issue 56); a server without roles: the owner of what is owned, else a reader. */
export function brainRole(brain) {
  if (brain.role) return brain.role;
  return brain.owned !== false ? "owner" : "viewer";
}

/** `body` sends bytes as they are (a File or Blob, with its type in `headers`); `json` sends JSON. */
export async function api(path, { method = "GET", json, body: bytes, signal, headers, key = session.key, raw = false } = {}) {
  const hs = new Headers(headers);
  if (key) hs.set("authorization", `Bearer ${key}`);
  if (!hs.has("accept")) hs.set("accept", "application/json");
  let body = bytes;
  if (json !== undefined) {
    hs.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  let res;
  try {
    res = await fetch(path, { method, headers: hs, body, signal, cache: "no-store" });
  } catch (e) {
    if (e?.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", "Could not reach the Brainbox server. Check that it is running and try again.");
  }
  if (res.status === 401 && key === session.key && session.signedIn) {
    // The key was revoked or the session ended (signed out elsewhere, expired): back to sign-in with a reason.
    const how = session.key ? "key" : "cookie";
    session.signOut();
    onUnauthorized(how);
  }
  if (raw && res.ok) return res;
  if (res.status === 204) return null;
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw errorFrom(res.status, data, text);
  return data;
}


/** Parses an SSE stream into {event, data} objects. */
export async function* sseEvents(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  const parse = (block) => {
    let event = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (name === "event") event = value;
      else if (name === "data") data.push(value);
    }
    return { event, data: data.join("\n") };
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf = (buf + value).replace(/\r\n?/g, "\n");
    let end;
    while ((end = buf.indexOf("\n\n")) !== -1) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      if (block.trim()) yield parse(block);
    }
  }
  if (buf.trim()) yield parse(buf);
}

/**
 * Asks with `Accept: text/event-stream`: `token` events carry raw text (onToken), `reset` voids the text so
 * far (the model failed mid-answer and a fallback follows), `done` carries the JSON result the plain call
 * returns, `error` a JSON error body. A server that answers plain JSON works too.
 */
export async function askStreaming(path, question, { signal, onToken, onReset, conversationId = null }) {
  const json = conversationId ? { question, conversationId } : { question };
  const res = await api(path, { method: "POST", json, signal, raw: true, headers: { accept: "text/event-stream" } });
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) return res.json();
  for await (const { event, data } of sseEvents(res)) {
    if (event === "token" || event === "message") onToken(data);
    else if (event === "reset") onReset();
    else if (event === "done" || event === "result") return jsonOr(data) ?? {};
    else if (event === "error") {
      const body = jsonOr(data) ?? {};
      const err = body.error ?? body;
      throw new ApiError(res.status, err.code ?? "stream_error", err.message ?? (data || "The answer stream failed"), undefined, body);
    }
  }
  throw new ApiError(res.status, "stream_incomplete", "The answer stream ended before the answer was complete. Try again.");
}

/** PUTs the bytes to the upload URL with XMLHttpRequest (fetch has no upload progress). */
export function putWithProgress(ticket, file, contentType, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(ticket.method ?? "PUT", ticket.uploadUrl);
    const headers = { "Content-Type": contentType, ...(ticket.headers ?? {}) };
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.addEventListener("progress", (e) => e.lengthComputable && onProgress(e.loaded / e.total));
    xhr.addEventListener("load", () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(jsonOr(xhr.responseText));
      reject(errorFrom(xhr.status, jsonOr(xhr.responseText), xhr.responseText));
    });
    xhr.addEventListener("error", () =>
      reject(new ApiError(0, "upload_failed", "The upload could not reach storage (network error, or the upload URL is on another origin this page may not call).")),
    );
    xhr.addEventListener("abort", () => reject(new ApiError(0, "upload_aborted", "The upload was cancelled.")));
    xhr.send(file);
  });
}
