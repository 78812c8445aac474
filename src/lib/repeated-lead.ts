// A source page's extractive lead (concepts/lead.ts) is a copy of one of its sentences placed first, under
// the page's "# Title" line if it has one. Readers of the page's own words (the full-text index, answer
// sentences) skip that copy: it would count the sentence twice, and quote it out of reading order.

/** A page's opening "# Title" line: the lead goes under it. */
export const OPENING_TITLE = /^# [^\n]*\n+/;
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** The page without its first paragraph (after any opening "# Title") when the rest of the page says it again. */
export function withoutRepeatedLead(text: string): string {
  return repeatedLead(text).rest;
}

/** The page's repeated lead (squashed), if it has one, and the page without it. */
export function repeatedLead(text: string): { lead: string | null; rest: string } {
  const heading = OPENING_TITLE.exec(text)?.[0] ?? "";
  const body = text.slice(heading.length);
  const end = body.indexOf("\n\n");
  if (end <= 0) return { lead: null, rest: text };
  const lead = squash(body.slice(0, end));
  const rest = body.slice(end + 2);
  return lead && squash(rest).includes(lead) ? { lead, rest: `${heading}${rest.trimStart()}` } : { lead: null, rest: text };
}

/** `sentence`, whitespace squashed, is the lead `repeatedLead` gave. */
export const isLead = (sentence: string, lead: string) => squash(sentence) === lead;
