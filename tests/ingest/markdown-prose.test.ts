// The prose reader behind answers' sentences, concept mentions and leads: paragraphs, list items and table
// rows as separate units, headings as their context, code fences (but for their commented lines) and
// generated lines left out.
import { describe, expect, test } from "bun:test";
import { proseUnits as allUnits } from "../../src/ingest/markdown-prose";
import { proseOf } from "../../src/concepts/extract";
import { sentencesOf, stem } from "../../src/modules/answer/sentences";

/** The units other than headings (each unit carries its headings as context; see "headings as units" below). */
const proseUnits = (markdown: string) => allUnits(markdown).filter((u) => u.kind !== "heading");

const RUNBOOK = `# Deploying Ledgerline

Ledgerline is our billing service. It runs
in the \`prod-eu\` cluster.

## Prerequisites

- Access to the \`ledgerline\` namespace
- A Vault token with the \`billing-deploy\` policy,
  renewed monthly
- kubectl 1.29 or newer

## Steps

1. Tag the release.
2. Run \`helm upgrade ledgerline ./chart\`.

\`\`\`bash
helm rollback ledgerline 0
\`\`\`

> Quoted: ask in #payments-oncall first.

| Role | Person |
|---|:---:|
| Engineering manager | [[ines-carvalho|Ines Carvalho]] |
| Tech lead | |

The founding year was
1990. The team moved in 2004.

Related: [[vault-access|Vault access]]`;

describe("proseUnits", () => {
  const units = proseUnits(RUNBOOK);
  test("paragraph lines join; each list item is its own unit, continuation lines included", () => {
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ["paragraph", "Ledgerline is our billing service. It runs in the `prod-eu` cluster."],
      ["item", "Access to the `ledgerline` namespace"],
      ["item", "A Vault token with the `billing-deploy` policy, renewed monthly"],
      ["item", "kubectl 1.29 or newer"],
      ["item", "Tag the release."],
      ["item", "Run `helm upgrade ledgerline ./chart`."],
      ["paragraph", "Quoted: ask in #payments-oncall first."],
      ["row", "Role: Engineering manager; Person: Ines Carvalho"],
      ["row", "Role: Tech lead"],
      ["paragraph", "The founding year was 1990. The team moved in 2004."],
    ]);
  });

  test("headings are context, not prose; the fence and the generated Related line are left out", () => {
    expect(units[0]!.headings).toEqual(["Deploying Ledgerline"]);
    expect(units[1]!.headings).toEqual(["Deploying Ledgerline", "Prerequisites"]);
    expect(units[4]!.headings).toEqual(["Deploying Ledgerline", "Steps"]);
    expect(units.some((u) => u.text.includes("rollback") || u.text.startsWith("Related"))).toBe(false);
  });

  test("a table row keeps its cells apart from its headers; a wiki link's pipe is not a cell edge", () => {
    expect(units.find((u) => u.kind === "row")!.cells).toEqual(["Engineering manager", "Ines Carvalho"]);
    expect(proseUnits("| a | b |\n|---|---|\n| [[x|X one]] | y |")[0]!.text).toBe("a: X one; b: y");
  });

  test("a code line with a comment is a command unit (comment, then code); code without one stays out", () => {
    const page = "## Tests\n\n```sh\nnpm test   # run the whole test suite\nnpm run lint\ncurl http://localhost:8080/api/health\nmake  //  build the binary\n```";
    expect(proseUnits(page)).toEqual([
      { kind: "command", text: "run the whole test suite: `npm test`", headings: ["Tests"] },
      { kind: "command", text: "build the binary: `make`", headings: ["Tests"] },
    ]);
    expect(proseOf(page)).toBe(""); // concepts never read code
    // Code keeps its marks in answers (markdown): a command reads as one.
    expect(sentencesOf(page).map((s) => s.text)).toEqual(["run the whole test suite: `npm test`", "build the binary: `make`"]);
  });

  test("a line wholly in bold heads its paragraph (a FAQ's question) or, alone, the blocks up to the next heading", () => {
    // A glossary's term is still read for names, with the text it heads; no answer sentence quotes it.
    const glossary = "**Maria Okafor**\nHead of infrastructure; she owns the database platform.";
    expect(proseOf(glossary)).toBe("Maria Okafor: Head of infrastructure; she owns the database platform.");
    expect(sentencesOf(glossary).map((s) => s.text)).toEqual(["Head of infrastructure; she owns the database platform."]);
    const faq = "**Can I get a refund?**\nYes, within 14 days.\n\n**Prerequisites**\n\nA Vault token.\n\n## Steps\n\nRun it. **Bold** inside is prose.\n\n**Note:** bold at the start only.";
    expect(proseUnits(faq)).toEqual([
      // The bold line itself is a label: read for names, never an answer sentence.
      { kind: "label", text: "Can I get a refund?", headings: [] },
      { kind: "paragraph", text: "Yes, within 14 days.", headings: ["Can I get a refund?"] },
      { kind: "label", text: "Prerequisites", headings: [] },
      { kind: "paragraph", text: "A Vault token.", headings: ["Prerequisites"] },
      { kind: "paragraph", text: "Run it. **Bold** inside is prose.", headings: ["Steps"] },
      { kind: "paragraph", text: "**Note:** bold at the start only.", headings: ["Steps"] },
    ]);
    // Two bold runs on one line are prose.
    expect(proseUnits("**Visa** and **SEPA** are accepted.")[0]!.headings).toEqual([]);
  });

  test("a colon-ended paragraph right before a list labels the list's items", () => {
    const notes = "Decisions:\n- Dual writes start on 14 April.\n\nAction items:\n\n1. Sofia writes the plan.\n\nA sentence that runs on for many more than eight words before its colon:\n- an item";
    const items = proseUnits(notes).filter((u) => u.kind === "item");
    expect(items.map((u) => u.headings)).toEqual([["Decisions"], ["Action items"], []]);
    // The lead-in is a label (read for names, never an answer sentence); the long one stays prose.
    expect(proseUnits(notes).filter((u) => u.kind === "label").map((u) => u.text)).toEqual(["Decisions:", "Action items:"]);
    expect(sentencesOf(notes).map((s) => s.text)).not.toContain("Decisions:");
  });

  test("a text without structure is one paragraph; an empty one has no units", () => {
    expect(proseUnits("Just one line of text.")).toEqual([{ kind: "paragraph", text: "Just one line of text.", headings: [] }]);
    expect(proseUnits("")).toEqual([]);
    expect(proseUnits("# Only a heading")).toEqual([]);
  });

  test("headings as units: concepts read the ones that are a person's name, answers none", () => {
    const team = "# Platform team\n\n## Maria Okafor\n\nLeads the group.\n\n## Rollback Plan\n\nRevert the release.";
    expect(allUnits(team).filter((u) => u.kind === "heading")).toEqual([
      { kind: "heading", text: "Platform team", headings: [] },
      { kind: "heading", text: "Maria Okafor", headings: ["Platform team"] },
      { kind: "heading", text: "Rollback Plan", headings: ["Platform team"] },
    ]);
    expect(proseOf(team)).toBe("Maria Okafor: Leads the group.\n\nRevert the release.");
    // Alone at the end, the name is a sentence of its own.
    expect(proseOf("Intro.\n\n## Maria Okafor")).toBe("Intro.\n\nMaria Okafor.");
    expect(sentencesOf(team).map((s) => s.text)).toEqual(["Leads the group.", "Revert the release."]);
  });
});

describe("its readers", () => {
  test("answer sentences: a question heads the sentences after it in its paragraph", () => {
    const [question, answer] = sentencesOf("Q: Can I get a refund? A: Yes, within 14 days of a charge.");
    expect(question!.text).toBe("Q: Can I get a refund?");
    expect(answer!.text).toBe("A: Yes, within 14 days of a charge.");
    expect(answer!.context.has(stem("refund"))).toBe(true);
    expect(question!.context.has(stem("refund"))).toBe(false);
  });

  test("answer sentences: one per list item and table row, never a heading, with the headings as context", () => {
    const sentences = sentencesOf(RUNBOOK);
    const texts = sentences.map((s) => s.text);
    expect(texts).toContain("kubectl 1.29 or newer");
    expect(texts).toContain("Role: Engineering manager; Person: Ines Carvalho");
    expect(texts).toContain("It runs in the `prod-eu` cluster.");
    expect(texts).not.toContain("Deploying Ledgerline");
    expect(texts.some((t) => t.includes("Prerequisites"))).toBe(false);
    const item = sentences.find((s) => s.text === "Tag the release.")!;
    expect([...item.context].sort()).toEqual(["deploying", "ledgerline", "steps"].map(stem).sort());
  });

  test("concept prose: items and rows end as sentences, rows without their headers, inline code kept or blanked", () => {
    const prose = proseOf(RUNBOOK);
    expect(prose).toContain("kubectl 1.29 or newer.");
    // Cells meet at the tagger's cell mark (a semicolon and two spaces: a cell opens as a sentence does).
    expect(prose).toContain("Engineering manager;  Ines Carvalho.");
    expect(prose).not.toContain("Role");
    expect(prose).toContain("It runs in the prod-eu cluster.");
    expect(proseOf(RUNBOOK, undefined, "blank")).toContain("It runs in the cluster.");
    expect(proseOf(RUNBOOK, ["paragraph"])).not.toContain("kubectl");
  });
});

test("emphasis marks go at a word's edge; escapes are undone; an underscore inside a word stays", async () => {
  const { withoutEmphasis } = await import("../../src/ingest/markdown-prose");
  expect(withoutEmphasis("Check the DAG named sales\\_nightly and clear it.")).toBe("Check the DAG named sales_nightly and clear it.");
  expect(withoutEmphasis("**Bold** and _italic_ and ***both***.")).toBe("Bold and italic and both.");
  expect(withoutEmphasis("snake_case_name and a \\* star")).toBe("snake_case_name and a * star");
});
