// Concept keys: how two spellings of one concept meet ("The Zeiss works" / "Zeiss", "Harbour towns" /
// "harbour town", "CURIE" / "Curie"), and which phrases never become pages (junk).
import { singular } from "../lib/singular";
import { englishFrequency } from "../lib/english-frequency";
import { isGivenName, isPersonName } from "./given-names";
import { slugify } from "../lib/slug";

/** Words that are never a concept alone: document furniture, calendar words, pronouns, generic heads, currencies and units. */
const JUNK = new Set(
  (
    "introduction summary conclusion conclusions chapter section figure table abstract overview contents appendix references " +
    "reference note notes example examples page pages part parts source sources related index preface foreword acknowledgements " +
    "january february march april may june july august september october november december monday tuesday wednesday thursday " +
    "friday saturday sunday today yesterday tomorrow i me we us you he him she her it they them this that these those there here " +
    // Their short forms ("18 Nov", "Tue 3 March"): "Nov" of a note's date was a concept page. Not those that are
    // also names or words of their own: Jan (a first name), Mar, Sat (the SAT), Sun.
    "feb apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri " +
    "mr mrs ms dr st one two three first second third new other people thing things way ways time times year years day days " +
    "lot lots kind kinds type types number numbers part use uses case cases fact facts result results " +
    // Labels of numbered things in documents ("Step 1", "Version 2", "Appendix B"): every manual has its own.
    "step steps version versions phase stage level item items exhibit annex volume vol issue lesson module " +
    "task exercise question option slide clause paragraph line row column equation listing fig " +
    // Currency codes and unit symbols: a table's "14,000 EUR" in every row is no concept.
    "usd eur gbp jpy chf cny rmb inr aud cad nzd sek nok dkk pln czk huf rub brl zar mxn krw hkd sgd kwh mwh mhz ghz " +
    "kb mb gb tb kib mib gib tib"
  ).split(" "),
);

/** Units of measure, spelt out or short: a phrase of nothing else ("1,609 sq mi", "4,167 square kilometres") is no concept. */
const UNITS = new Set(
  ("sq square cubic mi km kms cm mm ft lb lbs oz kg mph kph metre metres meter meters kilometre kilometres kilometer " +
    "kilometers mile miles foot feet inch inches yard yards acre acres hectare hectares litre litres liter liters gallon gallons").split(" "),
);

/** First words that make a noun phrase vague, not a concept ("several years", "last stage", "fourth day", "local stone"). */
const VAGUE = new Set(
  ("several many few some any other last first next previous same own whole various certain local small large big great little new old young early late recent further main major minor such each every most more less only " +
    "second third fourth fifth sixth seventh eighth ninth tenth " +
    // Words that place a thing relative to the text around it ("the following day", "the former president").
    "following preceding subsequent prior coming upcoming latter former remaining entire latest earliest").split(" "),
);

/** Latin abbreviations read as a phrase ("et al"). */
const LATIN_ABBREVIATION = /^(?:et al|e g|i e|ibid|viz)\.?$/i;
/** Trailing words of organization names that the short form drops ("Zeiss works", "Acme Inc"). */
const ORG_TAILS = new Set(["works", "inc", "ltd", "llc", "gmbh", "co", "corp", "plc", "ag", "sa"]);

/**
 * Last words of an organization's full name that its short name drops ("Northwind Coffee" is Northwind,
 * "Acme Labs" is Acme): unlike ORG_TAILS they stay in the key (a source titled "Northwind Coffee" is still
 * that concept's page), and the short name becomes an alias (orgShortName).
 */
const ORG_NAME_TAILS = new Set(
  ("company corporation incorporated limited holdings industries enterprises partners associates labs laboratories systems " +
    "technologies software solutions networks analytics robotics therapeutics pharmaceuticals motors airlines airways foods " +
    "brewing brewery roasters coffee bakery studios publishing consulting").split(" "),
);

/** Last words that make a poor alias on their own ("Halvard Bridge" must not claim "bridge"). */
export const GENERIC_HEADS = new Set(
  "bridge company university street river road city town college school institute museum church hall station park lake mountain island bay harbour harbor port house court works group society council museum square tower building".split(" "),
);

const LEADING = /^(?:the|a|an|this|that|these|those|our|their|his|her|its)\s+/i;
/** Roles written before a name ("Engineer Mira Castellan" is Mira Castellan). */
const ROLE = /^(?:engineer|architect|professor|prof|doctor|dr|mr|mrs|ms|sir|lady|lord|dame|king|queen|prince|princess|president|captain|general|admiral|colonel|father|mother|brother|sister|inventor|director|minister|senator|judge|bishop|pope|emperor|empress|chef|coach|detective|inspector)\.?\s+/i;
/** Titles only a person's name follows, a surname alone too ("Dr Okafor", "Mr Darcy"). */
const HONORIFIC = /^(?:dr|mr|mrs|ms|prof|sir|dame)\.?\s/i;
/**
 * A role is dropped only before a person's name (after an honorific, or a first name; not a place's
 * generic head after it): "Queen Elizabeth" is Elizabeth, but "General Hospital", "Captain America",
 * "Prince Edward Island" and "Emperor of China" are names of their own.
 */
const withoutRole = (name: string) => {
  const role = ROLE.exec(name);
  const rest = role ? name.slice(role[0].length) : "";
  const words = rest.split(" ");
  const person = /^\p{Lu}/u.test(rest) && (HONORIFIC.test(name) || isGivenName(words[0]!)) && !GENERIC_HEADS.has(words.at(-1)!.toLowerCase());
  return role && person ? rest : name;
};

/** Cleans a surface form for display: no leading article, no possessive, no edge punctuation. */
export function cleanSurface(surface: string): string {
  const cleaned = surface.replace(/\s+/g, " ").replace(LEADING, "");
  // "General Motors" is a company, not a general named Motors.
  const named = isOrgName(cleaned) ? cleaned : withoutRole(cleaned);
  return withoutTrailingDot(withoutEdgePunctuation(withoutPossessive(named.includes(" ") || named !== cleaned ? named : cleaned))).trim();
}

// The end cuts of cleanSurface, each skipping its regular expression when the ends show it cannot match (phrases
// are cleaned and keyed by the thousand a source: the Unicode-class pattern alone was a tenth of keying one).
const withoutPossessive = (text: string) => (/s$/i.test(text) ? text.replace(/[’']s$/i, "") : text);
const ASCII_WORD_CHAR = /^[A-Za-z0-9]$/;
function withoutEdgePunctuation(text: string): string {
  const first = text.charAt(0);
  const last = text.charAt(text.length - 1);
  // Letters and digits at both ends (or a closing dot or bracket at the end) leave nothing to cut.
  if (ASCII_WORD_CHAR.test(first) && (ASCII_WORD_CHAR.test(last) || last === "." || last === ")")) return text;
  return text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, "");
}
const withoutTrailingDot = (text: string) => (text.endsWith(".") ? text.slice(0, -1) : text);

/** What numbers a label: digits ("2", "3b", "4.1"), one letter, a roman numeral. */
const LABEL_MARK = /^(?:\d+(?:\.\d+)*[a-z]?|\p{L}|[IVXLC]+)$/u;

/** The merge key of a surface form, or null when it is junk. Plurals fold for lower-case phrases. */
export function conceptKey(surface: string, kind: "proper" | "phrase"): string | null {
  const words = cleanSurface(surface).split(" ").filter(Boolean);
  while (words.length > 1 && ORG_TAILS.has(words.at(-1)!.toLowerCase())) words.pop();
  if (words.length === 0 || words.length > 6) return null;
  if (kind === "phrase") {
    if (VAGUE.has(words[0]!.toLowerCase())) return null;
    words[words.length - 1] = singular(words.at(-1)!.toLowerCase());
  }
  const key = slugify(words.join(" "), "");
  if (!key || tooShort(key) || !/\p{L}{2}/u.test(key)) return null; // one-letter words, numbers, dates alone (a CJK name may be 2 characters)
  if (/^\d/.test(key) && !/\p{L}{3}/u.test(key)) return null;
  // A label's number or letter does not make it a concept: "Appendix B", "Table 2", "Part II" are junk, "Apollo 11" is not.
  const named = words.filter((w) => !LABEL_MARK.test(w));
  if ((named.length ? named : words).every((w) => JUNK.has(w.toLowerCase()))) return null;
  if (words.length > 1 && words.every((w) => UNITS.has(w.toLowerCase()))) return null; // "Square" alone may be a name
  if (words.length <= MAX_SECTION_WORDS && DOCUMENT_SECTIONS.has(words.map((w) => singular(w.toLowerCase())).join(" "))) return null;
  if (words.length <= 2 && LATIN_ABBREVIATION.test(words.join(" "))) return null; // "et al." in every paper's notes
  return key;
}

/**
 * Fewer than 3 letters (code points), or 2 in a CJK script. A string of n UTF-16 units holds at least n / 2
 * code points, so only short keys are counted.
 */
function tooShort(key: string): boolean {
  if (key.length >= 6) return false;
  const points = [...key].length;
  return points < 2 || (points === 2 && !/[\p{sc=Han}\p{sc=Hira}\p{sc=Kana}\p{sc=Hang}]/u.test(key));
}

/**
 * Section names of documents, title-cased as headings are ("Release Notes", "Known Issues", "Next Steps"): in a
 * brain of READMEs and runbooks every page has them, and they made pages linking everything. Singular forms.
 */
const DOCUMENT_SECTIONS = new Set(
  [
    "release note", "known issue", "next step", "getting started", "quick start", "further reading", "see also",
    "table of content", "frequently asked question", "asked question", "api reference", "best practice",
    "use case", "key feature", "configuration option", "system requirement", "change log", "troubleshooting guide",
    "how it work", "what's new", "whats new", "general information", "additional information", "more information",
    "contact information", "terms of service", "privacy policy", "related article", "related page",
  ].map((phrase) => phrase.split(" ").map((w) => singular(w)).join(" ")),
);
const MAX_SECTION_WORDS = Math.max(...[...DOCUMENT_SECTIONS].map((section) => section.split(" ").length));

/**
 * First words of place names, never a first name: "Western Europe", "North Korea", "South Africa" and "New
 * Guinea" are not known as "Europe", "Korea", "Africa" or "Guinea" (which "East Berlin" and "West Berlin"
 * would both have claimed).
 */
const PLACE_MODIFIERS = new Set(
  ("north south east west northern southern eastern western central upper lower new old great greater little " +
    "northeast northwest southeast southwest middle outer inner far near").split(" "),
);

/** The key a person-like name is also known by ("marie-curie" → "curie"), or null. */
export function surnameAlias(title: string): string | null {
  const words = title.split(" ");
  if (words.length < 2 || words.length > 3) return null;
  if (!words.every((w) => /^\p{Lu}[\p{Ll}'’-]+$/u.test(w))) return null;
  if (PLACE_MODIFIERS.has(words[0]!.toLowerCase())) return null;
  const last = words.at(-1)!.toLowerCase();
  if (GENERIC_HEADS.has(last) || ORG_NAME_TAILS.has(last) || JUNK.has(last) || last.length < 3) return null;
  return slugify(last, "") || null;
}

/**
 * The last word a name may go by later in the same source ("Castellan" of Mira Castellan, "Zhou" of Zhuang
 * Zhou), or null. Not a name English knows on its own (written capitalized in SUBTLEX: "Australia",
 * "Paris") after a word that is no first name: "Australia" in a source that also names "Ansett Australia"
 * is the country.
 */
export function sourceSurnameAlias(title: string): string | null {
  const surname = surnameAlias(title);
  if (!surname) return null;
  const words = title.split(" ");
  const last = words.at(-1)!.toLowerCase();
  const { counts, lowerCase } = englishFrequency();
  return isGivenName(words[0]!) || !counts.has(last) || lowerCase.has(last) ? surname : null;
}

/** The concept of an alias key claimed by two names: none (the key stays a concept of its own; resolve.ts claimOf). */
export const AMBIGUOUS = "";

/**
 * The surname another source may name a person by ("Marie Curie" → "curie"), or null: a name that opens with
 * a common first name and ends in a word English mostly writes capitalized (not "Roman Empire", "Solomon
 * Islands"). Only for a person is a bare surname elsewhere likely the same one: surnameAlias alone (fine
 * within one source, which names the full form nearby) took any two capitalized words for a person, and
 * "True Blood", "Jazz Age" and "Ansett Australia" claimed every "Blood", "Age" and "Australia" of the brain,
 * whichever source came first.
 */
export function personSurnameAlias(title: string): string | null {
  const surname = surnameAlias(title);
  const words = title.split(" ");
  if (!surname || !isGivenName(words[0]!)) return null;
  return englishFrequency().lowerCase.has(words.at(-1)!.toLowerCase()) ? null : surname;
}

/**
 * The first name another source may name a person by ("Ines Varga" → "ines"), or null: a name of two or three
 * words opening with a common first name (given-names.ts isPersonName). Book club notes say "Ines" of the
 * character list's Ines Varga, a team's notes "Priya" of its directory's Priya Raman. Two people of one first
 * name in a brain both claim it, and it goes to neither (resolve.ts claimOf): the crew's two Bens stay apart.
 * As with a surname, a first name that is also a place's ("Florence") may be taken for the person's.
 */
export function personFirstNameAlias(title: string): string | null {
  if (!isPersonName(title)) return null;
  return slugify(title.split(" ")[0]!, "") || null;
}

/**
 * The short name of an organization's full name, as written ("Northwind Coffee" → "Northwind"), or null:
 * a name of two to four capitalized words ending in an ORG_NAME_TAILS word. Whether a one-word short name is
 * a name rather than an ordinary word ("General Motors") is the caller's to check (it needs the tagger).
 */
export function orgShortName(title: string): string | null {
  return isOrgName(title) ? title.split(" ").slice(0, -1).join(" ") : null;
}

function isOrgName(name: string): boolean {
  // The last word first: most names and phrases end in no organization's word.
  if (!ORG_NAME_TAILS.has(name.slice(name.lastIndexOf(" ") + 1).toLowerCase())) return false;
  const words = name.split(" ");
  return words.length >= 2 && words.length <= 4 && words.every((w) => /^\p{Lu}/u.test(w));
}
