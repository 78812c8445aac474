// The markdown of a concept page, derived from its mentions: a lead (the best defining sentence), the
// sentences that name it, each linking to its source page, and related concepts.
export interface MentionRow {
  sourceId: string;
  pageSlug: string;
  pageTitle: string;
  surface: string;
  sentence: string;
}

/** Mention sentences shown on a concept page. */
export const MAX_SHOWN_MENTIONS = 12;

/**
 * A sentence that defines its subject: "<name> is/was a ..." scores highest, any "is/was" next; one that
 * opens with the name (after an article) is about it, more than one naming it a few words in ("Ask Priya
 * Natarajan before ..."). A role in apposition ("the head of product, Tomás Ferreira", "Owen Blake, the
 * Toronto lead,") defines it as much as "is a" does, and so does a label's "Owen Blake: Toronto lead.": it
 * leads over a sentence that only opens with the name ("Owen Blake said the team grew").
 */
function definitionScore(m: MentionRow): number {
  const s = m.sentence;
  const surface = m.surface.toLowerCase();
  const lower = s.toLowerCase();
  const at = lower.indexOf(surface);
  let score = 0;
  if (s.replace(/^(?:the|a|an)\s+/i, "").toLowerCase().startsWith(surface)) score += 3;
  else if (at >= 0 && at < 12) score += 2;
  if (at >= 0 && (APPOSITION_BEFORE.test(s.slice(0, at)) || APPOSITION_AFTER.test(lower.slice(at + surface.length)))) score += 4;
  // A team page's or glossary's "Tomas Becker: Site reliability engineer." (a heading or bold label with the text under it).
  else if (at === 0 && lower.startsWith(":", surface.length)) score += 4;
  if (/\b(?:is|was|are|were)\s+(?:a|an|the)\b/i.test(s)) score += 2;
  else if (/\b(?:is|was|are|were)\b/i.test(s)) score += 1;
  if (s.length > 40 && s.length < 300) score += 1;
  // A table row of three cells or more ("28 August; Login failures; Misconfigured Okta connection.") is a
  // record, not a definition: a sentence leads before it (a two-cell row, "Engineering manager; Ines
  // Carvalho", is scored as a sentence).
  if ((s.match(/; /g) ?? []).length >= 2) score -= 2;
  return score;
}

/** "... the head of product, " right before the name: a lower-case role word, then a comma. */
const APPOSITION_BEFORE = /\b\p{Ll}[\p{L}'’]+,\s+$/u;
/** ", the Toronto lead," right after the name. */
const APPOSITION_AFTER = /^,\s+(?:the|a|an|our|their)\s+[^,.;]{2,60},/;

export function conceptLead(mentions: MentionRow[]): MentionRow | undefined {
  let best: MentionRow | undefined;
  let bestScore = -Infinity;
  for (const m of mentions) {
    const score = definitionScore(m);
    if (score > bestScore) [best, bestScore] = [m, score];
  }
  return best;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").replace(/\[\[|\]\]/g, "").trim();

/** "Sentence ([[page]])." : the citation inside the sentence, so sentence splitters keep it with its claim. */
function cited(m: MentionRow): string {
  const sentence = oneLine(m.sentence);
  const end = /[.!?…]+["”’)]*$/.exec(sentence);
  const body = end ? sentence.slice(0, end.index) : sentence;
  return `${body} ([[${m.pageSlug}|${oneLine(m.pageTitle).replace(/[|\]]/g, " ")}]])${end ? end[0] : "."}`;
}

export function conceptMarkdown(input: { lead?: string; mentions: MentionRow[]; related: { slug: string; title: string }[] }): string {
  const parts: string[] = [];
  const leadMention = conceptLead(input.mentions);
  if (input.lead) parts.push(input.lead.trim());
  else if (leadMention) parts.push(cited(leadMention));
  // Distinct sources first, so a concept named in many sources shows them all before repeating one.
  // The lead's own sentence is not shown again under it.
  const listed = input.lead ? input.mentions : input.mentions.filter((m) => m !== leadMention);
  const seen = new Set<string>();
  const ordered = [...listed.filter((m) => !seen.has(m.sourceId) && seen.add(m.sourceId)), ...listed];
  const shown = [...new Set(ordered)].slice(0, MAX_SHOWN_MENTIONS);
  if (shown.length) {
    parts.push("## Mentions");
    parts.push(shown.map((m) => `- ${cited(m)}`).join("\n"));
  }
  if (input.related.length) {
    parts.push("## Related");
    parts.push(input.related.map((r) => `[[${r.slug}|${oneLine(r.title).replace(/[|\]]/g, " ")}]]`).join(" · "));
  }
  return parts.join("\n\n");
}
