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
