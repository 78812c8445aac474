// A source page opens with its lead, a copy of its most central sentence (concepts/lead.ts). The tagger reads
// that sentence once, where the text says it, and the concepts it names still take it as their first mention.
import { describe, expect, spyOn, test } from "bun:test";
import * as nlp from "../../src/concepts/nlp";
import { extractConcepts, MAX_MENTIONS_PER_SOURCE } from "../../src/concepts/extract";
import { repeatedLead } from "../../src/lib/repeated-lead";

const LEAD = "The Halvard Bridge carries the northern line across the Venn estuary.";
const BODY = [
  "Crews began the Halvard Bridge in 1927.",
  "Winter storms delayed the Halvard Bridge twice.",
  "Engineers tested the Halvard Bridge with loaded trains.",
  "The Halvard Bridge opened to traffic in 1931.",
  LEAD,
  "Its steel arch spans 240 metres.",
].join(" ");
const WITH_LEAD = `# Halvard Bridge\n\n${LEAD}\n\n${BODY}`;
const WITHOUT_LEAD = `# Halvard Bridge\n\n${BODY}`;

describe("a page's repeated lead", () => {
  test("is found when the rest of the page says it again, and only then", () => {
    expect(repeatedLead(WITH_LEAD)).toEqual({ lead: LEAD, rest: WITHOUT_LEAD });
    const opening = `# Notes\n\nA first paragraph said once.\n\n${BODY}`;
    expect(repeatedLead(opening)).toEqual({ lead: null, rest: opening });
    expect(repeatedLead("One paragraph only.")).toEqual({ lead: null, rest: "One paragraph only." });
  });

  test("is tagged once, yet stays the first mention of the concepts it names", () => {
    const spy = spyOn(nlp, "findPhrases");
    let read: string;
    let bridge: ReturnType<typeof extractConcepts>[number] | undefined;
    try {
      [bridge] = extractConcepts([{ slug: "halvard-bridge", title: "Halvard Bridge", markdown: WITH_LEAD }], "Halvard Bridge").filter((c) => c.key === "halvard-bridge");
      read = spy.mock.calls.map(([text]) => text).join("\n");
    } finally {
      spy.mockRestore();
    }
    expect(read.split(LEAD).length - 1).toBe(1);
    // The lead is the fifth sentence naming the bridge in reading order; kept first all the same.
    expect(bridge!.mentions).toHaveLength(MAX_MENTIONS_PER_SOURCE);
    expect(bridge!.mentions[0]!.sentence).toBe(LEAD);
    // Counted once, as in the page without its lead.
    const [plain] = extractConcepts([{ slug: "halvard-bridge", title: "Halvard Bridge", markdown: WITHOUT_LEAD }], "Halvard Bridge").filter((c) => c.key === "halvard-bridge");
    expect(bridge!.salience).toBe(plain!.salience);
    expect(plain!.mentions.map((m) => m.sentence)).not.toContain(LEAD);
  });
});
