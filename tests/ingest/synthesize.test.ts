import { describe, expect, test } from "bun:test";
import { addTitleLinks } from "../../src/links/wiki-links";
import {
  appendRelatedLinks,
  extractWikiLinks,
  linkRelatedPages,
  slugify,
  synthesizePages,
  uniqueSlug,
} from "../../src/ingest/synthesize.ts";
import { escapeRegExp } from "../../src/lib/regexp";
import { mulberry32, textWithNeedle } from "../support/random";

const paragraph = (topic: string, sentences: number) =>
  Array.from({ length: sentences }, (_, i) => `${topic} sentence ${i + 1} explains one more detail of the matter at hand.`).join(" ");

/** Every opened fence in a page is closed in the same page. */
function fencesBalanced(markdown: string): boolean {
  return (markdown.match(/^```/gm) ?? []).length % 2 === 0;
}

describe("synthesizePages", () => {
  test("a short document is one page, whitespace normalized, source cited", () => {
    const pages = synthesizePages({
      title: "  Coffee   basics ",
      markdown: "\r\n# Coffee basics\r\n\r\n\r\n\r\nGrind fresh.   \r\nBrew at 94 °C.\r\n\r\n\r\n",
      sourceUrl: "https://coffee.example/basics",
    });
    expect(pages).toEqual([
      { title: "Coffee basics", markdown: "# Coffee basics\n\nGrind fresh.\nBrew at 94 °C.\n\nSource: <https://coffee.example/basics>" },
    ]);
  });

  test("empty markdown gives no pages", () => {
    expect(synthesizePages({ title: "Nothing", markdown: " \n\n " })).toEqual([]);
  });

  test("a long document splits by headings, keeping the hierarchy in titles", () => {
    const markdown = [
      "# Handbook",
      paragraph("Welcome", 3),
      "## Onboarding",
      paragraph("Onboarding", 12),
      "## Benefits",
      "### Health",
      paragraph("Health", 12),
      "### Holidays",
      paragraph("Holiday", 12),
      "## Offboarding",
      paragraph("Offboarding", 5),
    ].join("\n\n");
    const pages = synthesizePages({ title: "Handbook", markdown }, { maxPageChars: 1200 });
    expect(pages.map((p) => p.title)).toEqual([
      "Handbook",
      "Handbook — Onboarding",
      "Handbook — Benefits — Health",
      "Handbook — Benefits — Holidays",
      "Handbook — Offboarding",
    ]);
    expect(pages[0]!.markdown.startsWith("# Handbook\n\nWelcome sentence 1")).toBe(true);
    expect(pages[1]!.markdown.startsWith("## Onboarding\n\nOnboarding sentence 1")).toBe(true);
    // the empty "## Benefits" heading travels with its first sub-section instead of becoming a page
    expect(pages[2]!.markdown.startsWith("## Benefits\n\n### Health\n\nHealth sentence 1")).toBe(true);
    for (const page of pages) expect(page.markdown.length).toBeLessThanOrEqual(1200);
    // nothing lost: every paragraph is on exactly one page
    const all = pages.map((p) => p.markdown).join("\n\n");
    for (const topic of ["Welcome", "Onboarding", "Health", "Holiday", "Offboarding"]) {
      expect(all.split(`${topic} sentence 1 `).length - 1).toBe(1);
    }
  });

  test("sections that fit stay whole: no split below the level that is needed", () => {
    const markdown = ["## Part A", "### A1", paragraph("A1", 2), "### A2", paragraph("A2", 2), "## Part B", paragraph("B", 10)].join("\n\n");
    const pages = synthesizePages({ title: "Guide", markdown }, { maxPageChars: 800 });
    expect(pages.map((p) => p.title)).toEqual(["Guide — Part A", "Guide — Part B"]);
    expect(pages[0]!.markdown).toContain("### A2");
  });

  test("an overlong section becomes paragraph windows labelled (part n)", () => {
    const markdown = ["# Log", ...Array.from({ length: 10 }, (_, i) => paragraph(`Entry${i}`, 3))].join("\n\n");
    const pages = synthesizePages({ title: "Log", markdown, sourceUrl: "https://log.example/" }, { maxPageChars: 700 });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.map((p) => p.title)).toEqual(pages.map((_, i) => `Log (part ${i + 1})`));
    for (const page of pages) expect(page.markdown.length).toBeLessThanOrEqual(700);
    expect(pages[1]!.markdown.startsWith("Entry")).toBe(true); // cut between paragraphs
    for (const page of pages) expect(page.markdown.endsWith("\n\nSource: <https://log.example/>")).toBe(true);
  });

  test("a single paragraph longer than a page is cut at sentence boundaries", () => {
    const pages = synthesizePages({ title: "Wall", markdown: paragraph("Wall", 40) }, { maxPageChars: 500 });
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      expect(page.markdown.length).toBeLessThanOrEqual(500);
      expect(page.markdown.endsWith(".")).toBe(true);
    }
  });

  test("code fences are never split, even when longer than a page", () => {
    const longCode = Array.from({ length: 80 }, (_, i) => `line_${i} = compute(${i})`).join("\n");
    const markdown = [
      "## Setup",
      paragraph("Setup", 6),
      "```python\n" + longCode + "\n\n\n# a comment, not a heading\n```",
      paragraph("After", 6),
      "~~~\n## fenced heading look-alike\n~~~",
    ].join("\n\n");
    const pages = synthesizePages({ title: "Code", markdown }, { maxPageChars: 600 });
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(fencesBalanced(page.markdown)).toBe(true);
    const withCode = pages.filter((p) => p.markdown.includes("line_0 = compute(0)"));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]!.markdown).toContain("line_79 = compute(79)\n\n\n# a comment, not a heading\n```"); // untouched inside
    expect(pages.some((p) => p.title.includes("fenced heading"))).toBe(false);
    expect(pages.some((p) => p.title.includes("a comment"))).toBe(false);
  });

  test("repeated heading paths get distinct titles", () => {
    const markdown = ["## Example", paragraph("One", 6), "## Example", paragraph("Two", 6)].join("\n\n");
    const pages = synthesizePages({ title: "API", markdown }, { maxPageChars: 500 });
    expect(pages.map((p) => p.title)).toEqual(["API — Example", "API — Example (2)"]);
  });
});

describe("slugs", () => {
  test("slugify", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
    expect(slugify("  Café Déjà-vu  ")).toBe("cafe-deja-vu");
    expect(slugify("Straße & Ærø — Łódź")).toBe("strasse-aero-lodz");
    expect(slugify("C++ / Rust: 2024 edition")).toBe("c-rust-2024-edition");
    expect(slugify("ﬁrst ½")).toBe("first-1-2");
    expect(slugify("🚀🔥")).toBe("page");
    // Other scripts keep their letters (NFKC, lower-cased); only Latin letters lose their accents.
    expect(slugify("Привет мир")).toBe("привет-мир");
    expect(slugify("Пётр Чайковский")).toBe("пётр-чайковский");
    expect(slugify("日本語のページ")).toBe("日本語のページ");
    expect(slugify("ｶﾀｶﾅ ＡＢＣ１２３")).toBe("カタカナ-abc123"); // half- and full-width forms folded
    expect(slugify("القاهرة الكبرى ٢٠٢٤")).toBe("القاهرة-الكبرى-٢٠٢٤");
    expect(slugify("ΑΘΗΝΑΣ Ἀθῆναι")).toBe("αθηνας-ἀθῆναι");
    expect(slugify("हिन्दी भाषा")).toBe("हिन्दी-भाषा"); // vowel signs (combining marks) stay with their letters
    expect(slugify("한국어 위키")).toBe("한국어-위키");
    expect(slugify("Tokyo 東京 — Токио")).toBe("tokyo-東京-токио");
    expect(slugify("İstanbul Ærø")).toBe("istanbul-aero");
    // Invisible format characters (bidi controls, zero-width joiners) and stray marks never enter a slug.
    expect(slugify("a\u200Fb\u202Ec\u200Dd")).toBe("a-b-c-d");
    expect(slugify("\u0301\u0308abc")).toBe("abc");
    expect(slugify("🚀 ✨ 👩‍👩‍👧 ½")).toBe("1-2");
    expect(slugify("🚀 ✨ 👩‍👩‍👧 — ‽")).toBe("page");
    expect(slugify("")).toBe("page");
    expect(slugify("---")).toBe("page");
  });

  test("very long titles are cut near 80 characters at a word boundary", () => {
    const slug = slugify("The quick brown fox jumps over the lazy dog ".repeat(5));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.length).toBeGreaterThan(60);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugify("a".repeat(200))).toBe("a".repeat(80));
  });

  test("non-Latin slugs are capped at 80 code points, never splitting a letter from its marks", () => {
    expect(slugify("東京".repeat(100))).toBe("東京".repeat(40));
    const devanagari = slugify("हि".repeat(100)); // each "हि" is two code points, one letter
    expect([...devanagari].length).toBe(80);
    expect(devanagari).toBe("हि".repeat(40));
    const words = slugify("Чайковский написал балет ".repeat(10));
    expect([...words].length).toBeLessThanOrEqual(80);
    expect(words).toMatch(/^[а-яё]+(-[а-яё]+)*$/u);
    expect(uniqueSlug("東京".repeat(40), (s) => s === "東京".repeat(40))).toBe(`${"東京".repeat(39)}-2`);
  });

  test("uniqueSlug counts up from -2 and stays within the length limit", () => {
    const taken = new Set(["intro", "intro-2", "page"]);
    expect(uniqueSlug("setup", (s) => taken.has(s))).toBe("setup");
    expect(uniqueSlug("intro", (s) => taken.has(s))).toBe("intro-3");
    expect(uniqueSlug("page", (s) => taken.has(s))).toBe("page-2");
    const long = slugify("x".repeat(100));
    const next = uniqueSlug(long, (s) => s === long);
    expect(next).toBe(`${"x".repeat(78)}-2`);
  });
});

describe("wiki links", () => {
  const pages = [
    { slug: "sourdough-starter", title: "Sourdough starter", markdown: "Feed it daily. Bake a rye loaf with it." },
    { slug: "rye-loaf", title: "Rye loaf", markdown: "Uses a mature SOURDOUGH   STARTER, whole rye and oats." },
    { slug: "oats", title: "Oats", markdown: "Rye loaf and sourdough starter go well with oats." }, // 1 word, < 5 chars: never a target
    { slug: "rye", title: "Rye", markdown: "A grain." },
    { slug: "baking", title: "Baking", markdown: "Rye loaves (plural) do not count; oats do not either." },
  ];

  test("pages link to pages whose title they mention, both ways", () => {
    const related = linkRelatedPages(pages);
    expect(related.get("sourdough-starter")).toEqual(["rye-loaf"]);
    expect(related.get("rye-loaf")).toEqual(["sourdough-starter"]);
    expect(related.get("oats")).toEqual(["sourdough-starter", "rye-loaf"]);
    expect(related.get("rye")).toEqual([]);
    expect(related.get("baking")).toEqual([]); // "Rye loaves" is not the whole words "Rye loaf"; "Oats" is too short
  });

  test("appendRelatedLinks is idempotent and replaces the previous line", () => {
    const once = appendRelatedLinks("Body text.\n", ["a", "b", "a"]);
    expect(once).toBe("Body text.\n\nRelated: [[a]], [[b]]");
    expect(appendRelatedLinks(once, ["a", "b"])).toBe(once);
    expect(appendRelatedLinks(once, ["c"])).toBe("Body text.\n\nRelated: [[c]]");
    expect(appendRelatedLinks(once, [])).toBe("Body text.");
    expect(appendRelatedLinks("Related: see the appendix.", ["x"])).toBe("Related: see the appendix.\n\nRelated: [[x]]");
  });

  test("addTitleLinks links a named title where it is named, in any case; where no link can go, on the Related line", () => {
    const targets = [
      { slug: "heat-pumps", title: "Heat Pumps" },
      { slug: "marren-workshop", title: "Marren workshop" },
      { slug: "tides", title: "Tides" },
      { slug: "old-harbour", title: "Old Harbour" },
    ];
    const markdown = "## Tides\n\nModern homes use heat  pumps. She trained at the [[marren|Marren]] workshop. `Old Harbour` is code.\n\nRelated: [[faq]]";
    const linked = addTitleLinks(markdown, targets);
    expect(linked).toBe(
      "## Tides\n\nModern homes use [[heat-pumps|heat pumps]]. She trained at the [[marren|Marren]] workshop. `Old Harbour` is code.\n\n" +
        "Related: [[faq]], [[marren-workshop]], [[tides]], [[old-harbour]]",
    );
    // Applied again (a retry), or with titles it links already: unchanged.
    expect(addTitleLinks(linked, targets)).toBe(linked);
    expect(addTitleLinks("See [[tides|the tides]]. Tides turn.", [{ slug: "tides", title: "Tides" }])).toBe("See [[tides|the tides]]. Tides turn.");
    expect(addTitleLinks("No title here.", [])).toBe("No title here.");
  });

  test("our own Related and Source lines do not keep a link alive", () => {
    const linked = pages.map((p) => ({ ...p, markdown: appendRelatedLinks(p.markdown, ["kubernetes-setup"]) }));
    linked.push({ slug: "kubernetes-setup", title: "kubernetes-setup", markdown: "Source: <https://docs.example/kubernetes-setup>" });
    const related = linkRelatedPages(linked);
    expect(related.get("baking")).toEqual([]);
    expect(related.get("kubernetes-setup")).toEqual([]);
  });

  test("extractWikiLinks", () => {
    const md = "See [[setup]] and [[ faq | the FAQ ]], again [[setup]].\n\n```\n[[in-code]]\n```\n\nInline `[[also-code]]` and [[last]].";
    expect(extractWikiLinks(md)).toEqual(["setup", "faq", "last"]);
    expect(extractWikiLinks(appendRelatedLinks("x", ["a", "b"]))).toEqual(["a", "b"]);
    expect(extractWikiLinks("[[]] [not] [[a\nb]]")).toEqual([]);
  });
});

test("a title is named where a whole-word, case-insensitive pattern with lookbehind would find it, with one title or many", () => {
  // Random bodies over letters (upper and lower case, accented, CJK, astral), digits, underscores, spaces and
  // punctuation; titles cut from them. The reference is the pattern the check replaced.
  const random = mulberry32(5);
  const alphabet = ["a", "B", "b", "A", "é", "É", "1", "_", " ", " ", "\n", "東", "𝒜", "-", ".", "'"];
  let named = 0;
  let compared = 0;
  for (let i = 0; i < 2000; i++) {
    const { text: body, needle: title } = textWithNeedle(random, alphabet, 6, 30, 5, 5);
    if (!title) continue;
    const escaped = title.split(/\s+/).map(escapeRegExp).join("\\s+");
    const reference = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "iu").test(body);
    const page = { slug: "page", title: "Page", markdown: body };
    const one = linkRelatedPages([page, { slug: "t", title, markdown: "" }]).get("page");
    // Five more titles: the body's words rule titles out first.
    const many = linkRelatedPages([page, { slug: "t", title, markdown: "" }, ...["x1", "x2", "x3", "x4", "x5"].map((s) => ({ slug: s, title: `zz ${s} qq`, markdown: "" }))]).get("page");
    expect(one).toEqual(reference ? ["t"] : []);
    expect(many).toEqual(reference ? ["t"] : []);
    if (reference) named++;
    compared++;
  }
  expect(compared).toBeGreaterThan(1000);
  expect(named).toBeGreaterThan(200);
  expect(compared - named).toBeGreaterThan(100);
});
