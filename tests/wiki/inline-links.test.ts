// Inline concept links (src/concepts/inline-links.ts): whole words in spaced scripts, anywhere in scripts
// written without spaces, never inside a longer name of another concept, never in code or existing links.
import { expect, test } from "bun:test";
import { linkConceptsInline } from "../../src/links/inline-links";
import { mentionBoundaries, mentionSource } from "../../src/links/surface-pattern";
import { escapeRegExp } from "../../src/lib/regexp";
import { mulberry32, textWithNeedle } from "../support/random";

test("a shorter name inside a longer concept's name is left to the longer one, whatever their order", () => {
  const targets = [
    { slug: "paris", surfaces: ["Paris"] },
    { slug: "university-of-paris", surfaces: ["University of Paris"] },
  ];
  const { markdown, linked } = linkConceptsInline("The University of Paris stands in Paris.", targets);
  expect(markdown).toBe("The [[university-of-paris|University of Paris]] stands in [[paris|Paris]].");
  expect(linked).toEqual(["paris", "university-of-paris"]);
});

test("a name is not linked where a longer name goes on after it, though no concept has that longer name", () => {
  // Was "[[aiko|Aiko]] Tanaka and …": the brain's page for "Aiko" linked inside her full name.
  const targets = [{ slug: "aiko", surfaces: ["Aiko"] }, { slug: "pieter", surfaces: ["Pieter"] }, { slug: "marie-curie", surfaces: ["Marie Curie"] }];
  const text = "Aiko Tanaka and Pieter de Vries are PhD students; Aiko works on seagrass and Pieter on kelp.";
  expect(linkConceptsInline(text, targets).markdown).toBe(
    "Aiko Tanaka and Pieter de Vries are PhD students; [[aiko|Aiko]] works on seagrass and [[pieter|Pieter]] on kelp.",
  );
  expect(linkConceptsInline("The Marie Curie Institute is in Paris.", targets).linked).toEqual([]);
  // A name at a line's end, or before a lower-case word or punctuation, is linked as before.
  expect(linkConceptsInline("Ask Aiko\nMonday is busy.", targets).markdown).toBe("Ask [[aiko|Aiko]]\nMonday is busy.");
  expect(linkConceptsInline("Marie Curie, the physicist.", targets).linked).toEqual(["marie-curie"]);
});

test("spaced scripts link whole words only; run-on Japanese and Korean with particles link where the name is", () => {
  expect(linkConceptsInline("Parisian cafés line the river.", [{ slug: "paris", surfaces: ["Paris"] }]).linked).toEqual([]);
  const ja = linkConceptsInline("夜の東京タワーは美しい。東京は大きい。", [
    { slug: "東京", surfaces: ["東京"] },
    { slug: "東京タワー", surfaces: ["東京タワー"] },
  ]);
  expect(ja.markdown).toBe("夜の[[東京タワー|東京タワー]]は美しい。[[東京|東京]]は大きい。");
  const ko = linkConceptsInline("밤의 남산타워는 아름답다.", [{ slug: "남산타워", surfaces: ["남산타워"] }]);
  expect(ko.markdown).toBe("밤의 [[남산타워|남산타워]]는 아름답다.");
});

test("a lower-case phrase is not linked inside a hyphenated word; a name after a prefix is", () => {
  const phrase = [{ slug: "call-engineer", surfaces: ["call engineer"] }];
  expect(linkConceptsInline("Page the on-call engineer now.", phrase).linked).toEqual([]);
  expect(linkConceptsInline("Page the on-call engineer, or any call engineer.", phrase).markdown).toBe("Page the on-call engineer, or any [[call-engineer|call engineer]].");
  expect(linkConceptsInline("She is an ex-Google engineer.", [{ slug: "google", surfaces: ["Google"] }]).markdown).toBe("She is an ex-[[google|Google]] engineer.");
});

test("code, headings and existing links are never touched; at most `max` links", () => {
  const text = "# Paris\n\n`Paris` in code, [[paris-guide|Paris guide]], then Paris, Lyon and Nice.";
  const targets = ["Paris", "Lyon", "Nice"].map((name) => ({ slug: name.toLowerCase(), surfaces: [name] }));
  const { markdown, linked } = linkConceptsInline(text, targets, 2);
  expect(markdown).toBe("# Paris\n\n`Paris` in code, [[paris-guide|Paris guide]], then [[paris|Paris]], [[lyon|Lyon]] and Nice.");
  expect(linked).toEqual(["paris", "lyon"]);
});

test("the boundary check on plain matches finds exactly the mentions a pattern with lookbehind and lookahead finds", () => {
  // Random texts over letters, digits, CJK, an astral letter, brackets, pipes and whitespace; surfaces cut from
  // them. Every start where the lookaround pattern matches must be a start the plain body + check accepts.
  const random = mulberry32(11);
  const alphabet = ["a", "b", "Ab", "1", "_", " ", "  ", "\n", "東", "京", "서", "울", "𝒜", "[", "]", "|", ".", "-", "é"];
  const word = "\\p{L}\\p{N}_";
  let compared = 0;
  let rejectedSome = 0;
  let foundSome = 0;
  for (let i = 0; i < 3000; i++) {
    const { text, needle: surface } = textWithNeedle(random, alphabet, 4, 30, 1, 6);
    if (!surface) continue; // empty, or half an astral letter
    const body = escapeRegExp(surface).replace(/ +/g, "\\s+");
    const starts = (pattern: RegExp, accept: (start: number, end: number) => boolean) => {
      const found: number[] = [];
      for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
        if (accept(m.index, m.index + m[0].length)) found.push(m.index);
        pattern.lastIndex = m.index + 1;
      }
      return found;
    };
    const bounded = mentionBoundaries(surface, word, "\\[|", "\\]");
    const expected = starts(new RegExp(mentionSource(surface, body, word, "\\[|", "\\]"), "gu"), () => true);
    expect(starts(new RegExp(body, "g"), (start, end) => bounded(text, start, end))).toEqual(expected);
    compared++;
    if (expected.length !== starts(new RegExp(body, "g"), () => true).length) rejectedSome++;
    if (expected.length > 0) foundSome++;
  }
  expect(compared).toBeGreaterThan(2000);
  // Both outcomes are common: the check rejects plain matches and accepts others.
  expect(rejectedSome).toBeGreaterThan(300);
  expect(foundSome).toBeGreaterThan(600);
});
