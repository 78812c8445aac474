// The tagger's own table of words it had not met grows with every new word; the instance is renewed past a
// bound (src/concepts/nlp.ts), and a renewed tagger reads exactly as the first did.
import { describe, expect, test } from "bun:test";
import { extractConcepts } from "../../src/concepts/extract";
import { findPhrases, lowerCaseReading, RECYCLE_AFTER_CHARS, renewTagger, taggerGeneration } from "../../src/concepts/nlp";
import { warmUpExtraction } from "../../src/concepts/warm-up";

const TEXT = "Engineer Mira Castellan designed the Halvard Bridge for the Northern Rail Company. Its steel arch opened in 1931.";

describe("the tagger over a long import", () => {
  test("renewed after its bound of characters, it finds the same phrases and readings", () => {
    const before = findPhrases(TEXT);
    const reading = lowerCaseReading("Surveyor");
    const first = taggerGeneration();
    // Past the bound: some words never seen (as names and numbers in a big import), then ordinary text.
    const unseen = `${Array.from({ length: 2000 }, (_, i) => `qv${i}x`).join(" ")}.`;
    const page = Array.from({ length: 400 }, () => TEXT).join(" ");
    findPhrases(unseen);
    for (let read = unseen.length; read <= RECYCLE_AFTER_CHARS; read += page.length) findPhrases(page);
    expect(findPhrases(TEXT)).toEqual(before);
    expect(taggerGeneration()).toBe(first + 1);
    expect(lowerCaseReading("Surveyor")).toEqual(reading);
    expect(before.phrases.map((p) => p.surface)).toEqual(expect.arrayContaining(["Mira Castellan", "Halvard Bridge", "Northern Rail Company", "steel arch"]));
  });
});

test("renewed many times (a long import), every tagger reads the same: the model is read once", () => {
  // Made from the model as published, each instance re-read its custom-entity data, re-encoded and longer each
  // time: renewal 26 ran out of memory.
  const before = findPhrases(TEXT);
  const first = taggerGeneration();
  for (let i = 0; i < 30; i++) {
    renewTagger();
    expect(findPhrases(TEXT)).toEqual(before);
  }
  expect(taggerGeneration()).toBe(first + 30);
});

describe("names at a sentence's opening", () => {
  test("a conjunction opening a sentence is not part of the name after it, even where the tagger reads it as one", () => {
    const text = "After learning that Hank and Alex are on their way, Kara finally tells Lucy.\n\nWhile Kara is trying to win back the trust , the Colonel James Harper begins.";
    const names = findPhrases(text).phrases.filter((p) => p.kind === "proper").map((p) => p.surface);
    expect(names).toContain("Kara");
    expect(names.filter((n) => /^While\b/.test(n))).toEqual([]);
    // After an opening quote too; and a role joined by "of" stays ("Call of Duty", not "of Duty").
    expect(findPhrases("'' As Mars commented in an interview, the song was a hit.").phrases.map((p) => p.surface)).toContain("Mars");
    expect(findPhrases("Call of Duty sold well that year.").phrases.map((p) => p.surface)).toContain("Call of Duty");
    // A role before a person's name is dropped; a common noun opening a title's name is its first word.
    expect(findPhrases("Surveyor Ada Quill mapped the coast.").phrases.map((p) => p.surface)).toContain("Ada Quill");
    const titles = ["Dragon Ball Super is a Japanese anime series.", "Magna Carta Holy Grail is the twelfth album."].flatMap((t) => findPhrases(t).phrases.map((p) => p.surface));
    expect(titles).toEqual(expect.arrayContaining(["Dragon Ball Super", "Magna Carta Holy Grail"]));
    expect(titles.filter((n) => n === "Ball Super" || n === "Carta Holy Grail")).toEqual([]);
    // A season before a year is a date, as a month is; a season's word in a name stays.
    expect(findPhrases("The show aired in Africa in Fall 2016 and again in Spring 2018.").phrases.map((p) => p.surface)).toEqual(["Africa"]);
    expect(findPhrases("Summer Glau starred in it; Spring handles the beans.").phrases.map((p) => p.surface)).toEqual(expect.arrayContaining(["Summer Glau", "Spring"]));
  });

  test("an instruction's verb opening a sentence or list item is not part of the name after it", () => {
    // List items as the prose reader gives them (markdown-prose.ts): a sentence each.
    const steps = ["Use 1Password for secrets.", "Ask Priya Nair for VPN access.", "Open Slack and join the ops channel.", "Run Terraform from the infra repo."].join("\n\n");
    const names = findPhrases(steps).phrases.filter((p) => p.kind === "proper").map((p) => p.surface);
    expect(names).toEqual(expect.arrayContaining(["1Password", "Priya Nair", "Slack", "Terraform"]));
    expect(names.filter((n) => /^(Use|Ask|Open|Run) /.test(n))).toEqual([]);
    // Names that open with such a word stay whole: a first name, a name joined by "of", a generic head.
    const kept = ["Mark Twain wrote it.", "Call of Duty sold well.", "Open University teaches online."].flatMap((t) => findPhrases(t).phrases.map((p) => p.surface));
    expect(kept).toEqual(expect.arrayContaining(["Mark Twain", "Call of Duty", "Open University"]));
    // Nor of a noun phrase the tagger reads it into: "Book flights" is no phrase; a phrase after a verb stays.
    const phrases = findPhrases(["Anything above 500 EUR needs approval.", "Book flights and hotels through TravelPerk.", "Run database migrations before the release."].join("\n\n"))
      .phrases.filter((p) => p.kind === "phrase")
      .map((p) => p.surface);
    expect(phrases).toEqual(["database migrations"]);
  });
});

describe("table cells", () => {
  test("a cell's first word opens it as a sentence's does; a participle opening a name is not part of it", () => {
    const markdown = `| Date | Impact | Cause |
|---|---|---|
| 12 February | Checkout errors for EU customers | Expired TLS certificate |
| 3 May | Exports delayed | Queue backlog after a deploy |
| 28 August | Login failures | Misconfigured Okta connection |`;
    const concepts = extractConcepts([{ slug: "incidents", title: "Incidents", markdown }], "Incidents");
    const keys = concepts.map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(["okta", "tls", "checkout-error", "login-failure", "queue-backlog"]));
    for (const junk of ["misconfigured-okta", "expired-tls", "checkout", "login", "queue", "exports"]) expect(keys).not.toContain(junk);
    // The mention quotes the row with its headers (the tagger read its cells alone): "Header: cell; …".
    expect(concepts.find((c) => c.key === "okta")!.mentions[0]!.sentence).toBe("Date: 28 August; Impact: Login failures; Cause: Misconfigured Okta connection.");
    // At a sentence's opening too; "United" stays ("United Nations").
    expect(findPhrases("Misconfigured Okta connections broke the logins.").phrases.map((p) => p.surface)).toContain("Okta");
    expect(findPhrases("United Nations observers arrived.").phrases.map((p) => p.surface)).toContain("United Nations");
  });
});

describe("verbs read as nouns", () => {
  test("a phrase ends before a verb the price after it shows ('costs £55', 'costs 40 EUR')", () => {
    const phrases = (text: string) => findPhrases(text).phrases.filter((p) => p.kind === "phrase").map((p) => p.surface);
    expect(phrases("A routine check-up costs £55 and a scale and polish costs £70.").filter((p) => /costs/.test(p))).toEqual([]);
    expect(phrases("A hotel night costs 150 EUR in Berlin.").filter((p) => /costs/.test(p))).toEqual([]);
    // A phrase followed by a verb, an article or a bare number stays whole.
    expect(phrases("The school district 5 covers the north.")).toContain("school district");
    expect(phrases("The billing team approves every refund.")).toContain("billing team");
    expect(phrases("The company gave the billing team a bonus.")).toContain("billing team");
  });
});

describe("hyphenated words", () => {
  // The tagger splits "on-call" into "on", "-", "call": a phrase or name could start inside a word.
  test("a phrase or name is found whole, never as the end of a hyphenated word", () => {
    const surfaces = (text: string) => findPhrases(text).phrases.map((p) => `${p.kind}:${p.surface}`);
    expect(surfaces("Page the on-call engineer through PagerDuty.")).toContain("phrase:on-call engineer");
    expect(surfaces("A state-of-the-art steam turbine was fitted.")).toContain("phrase:state-of-the-art steam turbine");
    const names = surfaces("The treaty was signed by Jean-Paul Sartre at Saint-Malo.");
    expect(names).toEqual(expect.arrayContaining(["proper:Jean-Paul Sartre", "proper:Saint-Malo"]));
    // No fragment of them ("call engineer", "Malo", "Pa"), and the name's pieces are no phrase of their own.
    expect(names.filter((n) => n.startsWith("phrase:") || !/^proper:(Jean-Paul Sartre|Saint-Malo)$/.test(n))).toEqual([]);
    expect(surfaces("PagerDuty sends pages to the on-call engineer.").filter((n) => /call engineer/.test(n))).toEqual(["phrase:on-call engineer"]);
  });
});

describe("names the tagger reads as words", () => {
  const names = (text: string) => findPhrases(text).phrases.filter((p) => p.kind === "proper").map((p) => p.surface);
  test("an acronym English rarely writes as a word is a name; emphasis in capitals is not", () => {
    expect(names("USPS refunds take 15 to 30 days; UPS and FedEx refunds usually arrive within 5 business days.")).toEqual(["USPS", "UPS", "FedEx"]);
    expect(names("UPS accounts also need the postal code.")).toEqual(["UPS"]);
    expect(names("Connect your UPS account first.")).toEqual(["UPS"]);
    expect(names("Do NOT share your FREE trial key.")).toEqual([]);
  });

  test("a word English never writes, opening a sentence, is a name whatever its ending suggests", () => {
    // The tagger guesses "Shopify" an adjective (-ify) and "Spendly" an adverb (-ly).
    expect(names("Shopify orders that are already fulfilled or archived are not imported.")).toEqual(["Shopify"]);
    expect(names("Spendly is where expenses go.")).toEqual(["Spendly"]);
    // A common noun capitalized because it opens the sentence still starts its phrase.
    const treatment = findPhrases("Treatment plans above £1,000 need approval.").phrases;
    expect(treatment.map((p) => `${p.kind}:${p.surface}`)).toContain("phrase:Treatment plans");
  });
});

describe("Latin abbreviations", () => {
  test("a sentence the tagger ends at 'et al.' goes on when the next does not open as a sentence", () => {
    const { sentences, phrases } = findPhrases("2025-09-12: discussed Okafor et al.; Priya thinks the confound matters more. Sato agrees.");
    expect(sentences).toEqual(["2025-09-12: discussed Okafor et al.; Priya thinks the confound matters more.", "Sato agrees."]);
    expect(phrases.filter((p) => p.kind === "proper").map((p) => [p.surface, p.sentence])).toEqual([["Okafor", 0], ["Priya", 0], ["Sato", 1]]);
  });

  test("'et al' is no concept", () => {
    const md = "Brandt et al. measured reaction time. Okafor et al. measured recall.";
    expect(extractConcepts([{ slug: "p", title: "Notes", markdown: md }], "Notes").map((c) => c.key)).not.toContain("et-al");
  });
});

describe("model numbers", () => {
  const names = (text: string) => findPhrases(text).phrases.filter((p) => p.kind === "proper").map((p) => p.surface);

  test("a model's number is part of its name", () => {
    // Was "Aero" and "Windows": every model of a line one concept.
    expect(names("The Aero 3 weighs 19 kg. We moved the laptops to Windows 11 last year.")).toEqual(["Aero 3", "Windows 11"]);
    expect(names("The Aero 3 and the Trail 2 are in stock.")).toEqual(["Aero 3", "Trail 2"]);
  });

  test("a year, a date, an amount or a gate's number is no part of a name", () => {
    expect(names("See Smith 2019 for details.")).toEqual(["Smith"]);
    expect(names("It opens on May 5 at the Lisbon office.")).toEqual(["Lisbon"]);
    expect(names("The Aero weighs 3 kg more than Trail 2 kg.")).not.toContain("Trail 2");
  });
});

describe("nationalities", () => {
  test("a nationality before a noun is the phrase's, not a name", () => {
    // Was the name "Dutch": a recipe brain's concept page for the Netherlands' people.
    const found = (text: string) => findPhrases(text).phrases.map((p) => [p.surface, p.kind]);
    expect(found("Brown the meat in a Dutch oven over medium heat.")).toContainEqual(["Dutch oven", "phrase"]);
    expect(found("Brown the meat in a Dutch oven over medium heat.")).not.toContainEqual(["Dutch", "proper"]);
    expect(found("Serve with Greek yogurt.")).toEqual([["Greek yogurt", "phrase"]]);
    // A nationality naming a people stays a name ("the French" before their verb is no phrase of ours).
    expect(found("She met the Dutch in Lisbon.")).toContainEqual(["Dutch", "proper"]);
  });
});

test("the extraction thread's warm-up text reads as a source would: the tagger's paths for names, places and phrases", () => {
  // What the thread reads once when it starts (src/concepts/warm-up.ts): a text that found nothing would load
  // the model but leave the name and phrase paths cold for the first import.
  const concepts = warmUpExtraction();
  const kinds = new Map(concepts.map((c) => [c.title, c.kind]));
  expect(kinds.get("Ada Quill")).toBe("proper");
  expect(kinds.get("Port Elwyn")).toBe("proper");
  expect(kinds.get("University of Glasgow")).toBe("proper");
  expect([...kinds.values()]).toContain("phrase");
  expect(concepts.every((c) => c.mentions.every((m) => m.pageSlug === "harbour-survey"))).toBe(true);
});
