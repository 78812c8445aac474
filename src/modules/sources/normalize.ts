// Maps both wire surfaces' source bodies onto one NewSource, with a field-named error for each mistake.
import { classifyHostname, isAllowListed, type AllowList } from "../../ingest/address-policy";
import { invalid } from "../../lib/errors";
import type { NewSource } from "./service";

function requireText(value: string | undefined, field: string, what: string): string {
  if (value === undefined) throw invalid(field, `${field} is required for ${what}`);
  if (value.trim() === "") throw invalid(field, `${field} must not be empty`);
  return value;
}

/** http(s) only; literal private addresses refused now (names are checked again after DNS, at fetch). */
export function checkLinkUrl(raw: string, allow: AllowList, field = "url"): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(field, `${field} is not a valid absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid(field, `${field} must be http or https`);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const verdict = classifyHostname(url.hostname);
  if (verdict?.kind === "blocked" && !isAllowListed(allow, url.hostname, port))
    throw invalid(field, `${field} points at a ${verdict.reason} address, which Brainbox does not fetch`);
  return url.toString();
}

function optionalOrigin(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === "http:" || url.protocol === "https:") return url.toString();
  } catch {}
  throw invalid("sourceUrl", "sourceUrl must be an absolute http(s) URL");
}

export function fromV1(body: {
  kind?: string;
  mode?: string;
  url?: string;
  title?: string;
  content?: string;
  sourceUrl?: string;
  externalId?: string;
  type?: unknown;
}, allow: AllowList): NewSource {
  // The two surfaces name the kind of source differently (the contract says so): a body written for the other
  // one would otherwise be stored as text, silently.
  if (body.type !== undefined)
    throw invalid("type", `type is a field of the unversioned /api/brains/{id}/sources; on /api/v1 a link is kind "link", a note is mode "note", and text needs neither`);
  if (body.kind !== undefined && body.kind !== "link" && body.kind !== "text" && body.kind !== "note")
    throw invalid("kind", `kind must be "link" (or omitted for text and notes), got "${body.kind}"`);
  if (body.mode !== undefined && body.mode !== "note" && body.mode !== "text")
    throw invalid("mode", `mode must be "note" (or omitted), got "${body.mode}"`);
  const externalId = body.externalId;
  if (body.kind === "link")
    return { type: "link", url: checkLinkUrl(requireText(body.url, "url", "a link"), allow), title: body.title, externalId };
  if (body.mode === "note" || body.kind === "note")
    return { type: "note", title: requireText(body.title, "title", "a note"), content: requireText(body.content, "content", "a note"), externalId };
  return {
    type: "text",
    title: requireText(body.title, "title", "a text source"),
    content: requireText(body.content, "content", "a text source"),
    sourceUrl: optionalOrigin(body.sourceUrl),
    externalId,
  };
}

export function fromUnversioned(body: {
  type: string;
  url?: string;
  title?: string;
  content?: string;
  body?: string;
  sourceUrl?: string;
  externalId?: string;
  kind?: unknown;
  mode?: unknown;
}, allow: AllowList): NewSource {
  const misplaced = body.kind !== undefined ? "kind" : body.mode !== undefined ? "mode" : null;
  if (misplaced) throw invalid(misplaced, `${misplaced} is a field of /api/v1/brains/{id}/sources; here type is "link", "text" or "note" (a note's markdown in body)`);
  const externalId = body.externalId;
  switch (body.type) {
    case "link":
      return { type: "link", url: checkLinkUrl(requireText(body.url, "url", "a link"), allow), title: body.title, externalId };
    case "text":
      return {
        type: "text",
        title: requireText(body.title, "title", "a text source"),
        content: requireText(body.content, "content", "a text source"),
        sourceUrl: optionalOrigin(body.sourceUrl),
        externalId,
      };
    case "note":
      return { type: "note", title: requireText(body.title, "title", "a note"), content: requireText(body.body, "body", "a note"), externalId };
    default:
      throw invalid("type", `type must be "link", "text" or "note", got "${body.type}"`);
  }
}
