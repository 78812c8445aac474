// Names a source's title gives that its text may not repeat (src/concepts/extract.ts namesInTitle): the notes
// on a paper titled by its authors name them only there.
import { expect, test } from "bun:test";
import { extractConcepts } from "../../src/concepts/extract";

const keysOf = (title: string, body: string) => extractConcepts([{ slug: "p", title, markdown: `# ${title}\n\n${body}` }], title).map((c) => c.key);

test("a paper's authors in its title are concepts, their mention the title", () => {
  const title = "Brandt and Liu (2021): caffeine and reaction time";
  const concepts = extractConcepts([{ slug: "brandt-and-liu", title, markdown: `# ${title}\n\nA randomized controlled trial with 96 adults.` }], title);
  const brandt = concepts.find((c) => c.key === "brandt");
  expect(brandt?.kind).toBe("proper");
  expect(brandt?.mentions).toEqual([{ pageSlug: "brandt-and-liu", surface: "Brandt", sentence: title }]);
  expect(concepts.map((c) => c.key)).toContain("liu");
});

test("a title of words English writes in lower case names nothing, title-cased or not", () => {
  expect(keysOf("Getting Started With The API Reference", "Install it first.")).toEqual([]);
  expect(keysOf("Expense Policy", "Keep every receipt.")).toEqual([]);
  expect(keysOf("Pricing and plans", "Every plan includes support.")).toEqual([]);
});

test("a name in the title whose first word the text names is quoted from the text, not the title", () => {
  // Was the title alone ("DevDays Lisbon 2027: attendee guide"): a concept page that said nothing.
  const title = "DevDays Lisbon 2027: attendee guide";
  const body = "DevDays runs from 12 to 14 May 2027 at the Lisbon Congress Centre.\n\nBring a photo ID.";
  const concepts = extractConcepts([{ slug: "guide", title, markdown: `# ${title}\n\n${body}` }], title);
  const event = concepts.find((c) => c.key === "devdays-lisbon");
  expect(event?.mentions).toEqual([{ pageSlug: "guide", surface: "DevDays Lisbon", sentence: "DevDays runs from 12 to 14 May 2027 at the Lisbon Congress Centre." }]);
  // A name whose first word the text never names keeps the title as its sentence.
  const other = extractConcepts([{ slug: "guide", title, markdown: `# ${title}\n\nBring a photo ID.` }], title);
  expect(other.find((c) => c.key === "devdays-lisbon")?.mentions.map((m) => m.sentence)).toEqual([title]);
});

test("a month's or a day's short form is no concept, in the title or the text; a first name written like one is", () => {
  // "Nov" of "Call notes: Harbor Foods, 18 Nov" and "by 20 Nov" was a concept page of a sales team's brain.
  const keys = keysOf("Call notes: Brightline, 18 Nov", "Sofia sends the roadmap by 20 Nov; Jan reviews it on Fri 21 Nov, then on Dec 3.");
  expect(keys).toContain("brightline");
  expect(keys).not.toContain("nov");
  expect(keys).not.toContain("fri");
  expect(keys).not.toContain("dec");
  expect(keys).toContain("jan");
});
