// Values read from a page's sentences for comparing: a date (a birth, a death, a release), a country, a
// quantity, and the names a sentence writes (a bridge's next hop). Dates and numbers compare as values.
import { COUNTRY_OF, countryNamed, countryOfLanguage, isDemonym } from "../words/nationalities";
import { MONTHS } from "../words/comparisons";
import { FEMALE_TITLES, MALE_TITLES } from "../words/titles";
import { ruleOn, RULES } from "../rules";

export interface Dated {
  /** Comparable: later dates are larger (a year alone counts as its first day). */
  value: number;
  /** As written: "14 March 1900", "1957". */
  text: string;
  year: number;
  /** Only the year is known. */
  yearOnly: boolean;
}

const MONTH = `(?:${MONTHS.join("|")}|${MONTHS.map((m) => m.slice(0, 3)).join("|")})\\.?`;
const DATE = new RegExp(
  `\\b(\\d{1,2})\\s+(${MONTH})\\s*,?\\s+(\\d{3,4})\\b|\\b(${MONTH})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s+(\\d{3,4})\\b|\\b(${MONTH})\\s+(\\d{3,4})\\b|(?<![\\d.,])\\b(1\\d{3}|20\\d{2})\\b(?![\\d.,]\\d)`,
  "gi",
);
const monthOf = (word: string) => MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().replace(/\.$/, "").slice(0, 3))) + 1;

/** A year run into the day after it, its dash lost ("17 September 190030 April 1985", "c. 142327 July 1469"). */
const GLUED = new RegExp(`\\b(\\d{4})([1-9]|[12]\\d|3[01])(?=\\s+${MONTH}\\s)`, "gi");

/** A text with each year run into the next date's day parted from it by a dash, as it was written. */
export const unglued = (text: string) => (ruleOn(RULES.gluedDates) ? text.replace(GLUED, (_, year: string, day: string) => `${year} – ${day}`) : text);

/** Every date a text writes, in order, with where it starts. */
export function datesIn(text: string): (Dated & { at: number })[] {
  const out: (Dated & { at: number })[] = [];
  for (const m of unglued(text).matchAll(DATE)) {
    const [day, month, year] = m[1]
      ? [Number(m[1]), monthOf(m[2]!), Number(m[3])]
      : m[4]
        ? [Number(m[5]), monthOf(m[4]), Number(m[6])]
        : m[7]
          ? [0, monthOf(m[7]), Number(m[8])]
          : [0, 0, Number(m[9])];
    if (year < 100 || day > 31) continue;
    out.push({ value: year * 10_000 + month * 100 + day, text: m[0].trim(), year, yearOnly: month === 0, at: m.index! });
  }
  return out;
}

/** A birth or a death: after "born" / "died", or the first or second date of the opening "(1 May 1900 – 1980)". */
export function lifeDate(sentences: string[], which: "birth" | "death"): { date: Dated; sentence: string } | null {
  // "b." and "d." in lower case only: "Jerome D. Salinger" and "Ph.D. in 1904" say no death.
  const cue = which === "birth" ? /\b(?:born|Born|BORN)\b|(?<![\p{L}.])b\.\s/u : /\b(?:died|Died|DIED|death|Death)\b|(?<![\p{L}.])d\.\s/u;
  const cued = (s: string) => {
    const at = s.search(cue);
    if (at < 0) return null;
    const date = datesIn(s.slice(at)).find((d) => d.at < 60);
    return date ? { date, sentence: s } : null;
  };
  // The opening's own span says the subject's life; a later sentence's "died" may be another's or a degree's.
  const first = ruleOn(RULES.lifeSpanFirst);
  const opening = sentences[0] !== undefined ? (cued(sentences[0]) ?? (first ? spanDate(sentences[0], which) : null)) : null;
  if (opening) return opening;
  for (const s of sentences.slice(1, 8)) {
    const found = cued(s);
    if (found) return found;
  }
  for (const s of sentences.slice(first ? 1 : 0, 3)) {
    const found = spanDate(s, which);
    if (found) return found;
  }
  return null;
}

/** The birth or death of a "(1 May 1900 – 1980)" span; a bracket inside it that holds no date is read past ("Austria-Hungary (now Slovakia)"). */
function spanDate(s: string, which: "birth" | "death"): { date: Dated; sentence: string } | null {
  const text = ruleOn(RULES.lifeSpanFirst) ? unglued(s).replace(/\(\s*[^()\d]*\)/g, "") : s;
  const span = /\(([^()]*?\d{3,4}[^()]*?)\s*[–—-]\s*([^()]*?\d{3,4}[^()]*?)\)/.exec(text);
  if (!span) return null;
  const date = datesIn(which === "birth" ? span[1]! : span[2]!).at(which === "birth" ? 0 : -1);
  return date ? { date, sentence: s } : null;
}

/** When a thing came to be (a film's release, a band's forming): the first date of its opening sentences. */
export function eventDate(sentences: string[]): { date: Dated; sentence: string } | null {
  for (const s of sentences.slice(0, 2)) {
    const date = datesIn(s)[0];
    if (date) return { date, sentence: s };
  }
  for (const s of sentences) {
    if (!/\b(?:released|premiered|published|founded|established|formed|opened|aired|built)\b/i.test(s)) continue;
    const date = datesIn(s)[0];
    if (date) return { date, sentence: s };
  }
  return null;
}

/** The country a page says its subject is of or in: "an American actor", "a river in Brazil". */
export function countryOf(sentences: string[]): { country: string; said: string; sentence: string } | null {
  const word = /\b(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}]*){0,3})/gu;
  for (const s of sentences.slice(0, 3)) {
    for (const m of s.matchAll(word)) {
      // Longest run first: "South Korean" before "Korean", "United States" before "United".
      const run = m[1]!.split(/\s+/);
      for (let n = run.length; n >= 1; n--) {
        const said = run.slice(0, n).join(" ").replace(/\.$/, "");
        const country = countryNamed(said);
        if (!country) continue;
        const after = s.slice(m.index! + said.length, m.index! + said.length + 24);
        // "a German-born American physicist" is American; an "English-language film" is of no country.
        if (/^[-–]\s?(?:born|language)|^\s+language/i.test(after)) break;
        // "an Armenian American film editor" is American: of two in a row, the second is the country.
        const following = run[n] ? COUNTRY_OF.get(run[n]!.toLowerCase()) : undefined;
        if (following) return { country: following, said: `${said} ${run[n]}`, sentence: s };
        // "an Armenian-American film editor" is American: the last of a joined pair is the country.
        const joined = /^-\s?(\p{Lu}\p{L}+)/u.exec(after);
        const second = joined ? COUNTRY_OF.get(joined[1]!.toLowerCase()) : undefined;
        if (second) return { country: second, said: `${said}-${joined![1]}`, sentence: s };
        return { country, said, sentence: s };
      }
    }
  }
  return null;
}


/** Just before a predicate's adjective: "is an", "was a 1991", "is a former". */
const PREDICATE = /\b(?:is|was|are|were)\s+(?:an?|the)\s+(?:[\p{L}\d'-]+\s+){0,3}$/u;

const COUNTRY_WORD = /\p{Lu}[\p{L}.]*(?:\s+\p{Lu}\p{L}*){0,3}/gu;

/**
 * Every country a page says its subject is of or in, from the first of its opening sentences that says one:
 * a joined run is all of them ("a British–American-Japanese film", "an Italian- Spanish comedy", "an
 * American- Canadian wrestler"); one born elsewhere or a language is no country ("Italian- born", "Hindi-
 * language"). What "Are A and B from the same country?" compares: they are when the two share one.
 */
export function countriesOf(sentences: string[]): { countries: string[]; said: string; sentence: string } | null {
  for (const s of sentences.slice(0, 3)) {
    const found = countryMentions(s);
    if (found.length === 0) continue;
    // The run that says what the subject is ("… (born in Berlin) is an AMERICAN actor"), else the first.
    const said = found.findIndex((f) => PREDICATE.test(s.slice(Math.max(0, f.at - 60), f.at)));
    return joinedRun(s, found, Math.max(0, said));
  }
  // An opening that says none: later, only what says the subject's own ("He is an American …", "born in Ponce,
  // Puerto Rico"), not a place it went to.
  for (const s of sentences.slice(3)) {
    const found = countryMentions(s);
    const own = found.findIndex((f) => PREDICATE.test(s.slice(Math.max(0, f.at - 60), f.at)) || OWN_PLACE.test(s.slice(Math.max(0, f.at - 50), f.at)));
    if (own >= 0) return joinedRun(s, found, own);
  }
  return ruleOn(RULES.languageCountry) ? languageCountry(sentences) : null;
}

/** A page naming no country but the language of one ("a 1975 Kannada film"): that country, from its opening. */
function languageCountry(sentences: string[]): { countries: string[]; said: string; sentence: string } | null {
  for (const s of sentences.slice(0, 3)) {
    for (const m of s.matchAll(/\p{Lu}\p{Ll}+/gu)) {
      const country = countryOfLanguage(m[0]);
      if (country) return { countries: [country], said: m[0], sentence: s };
    }
  }
  return null;
}

/** Just before the place a subject is of: "born in Ponce, ", "a native of ", "based in ". */
const OWN_PLACE = /\b(?:born|raised|native of|based|headquartered|located)\b[^.;]{0,40}$/i;

/** The mention at `start` with those joined to it by a dash, a slash, a space or "and" ("British–American-Japanese"). */
function joinedRun(s: string, found: Mention[], start: number): { countries: string[]; said: string; sentence: string } {
  const group = [found[start]!];
  for (const f of found.slice(start + 1)) {
    if (!/^(?:\s*[-–—\/]\s*|\s+|\s+and\s+|,\s+)$/.test(s.slice(group.at(-1)!.end, f.at))) break;
    group.push(f);
  }
  return { countries: [...new Set(group.map((g) => g.country))], said: s.slice(group[0]!.at, group.at(-1)!.end), sentence: s };
}

interface Mention {
  country: string;
  said: string;
  at: number;
  end: number;
}

/** The countries a sentence names or says an adjective of, in order. */
function countryMentions(s: string): Mention[] {
  const found: Mention[] = [];
  for (const m of s.matchAll(COUNTRY_WORD)) {
    const run = m[0].split(/\s+/);
    for (let n = run.length; n >= 1; n--) {
      const said = run.slice(0, n).join(" ").replace(/\.$/, "");
      const country = countryNamed(said);
      if (!country) continue;
      const end = m.index! + said.length;
      // "shot on the coast of Maine": where a work was made or set is not whose it is.
      if (!isDemonym(said) && /\b(?:shot|filmed|set|recorded|toured|played|performed)\b[^.;]{0,30}$/i.test(s.slice(Math.max(0, m.index! - 40), m.index!))) break;
      // "Jordan Henderson", "Israel Kamakawiwoʻole": a one-word country name opening a longer name is a person's.
      if (n < run.length && n === 1 && !isDemonym(said) && !/\b(?:in|of|from|to)\s+(?:the\s+)?$|,\s*$/i.test(s.slice(0, m.index!))) break;
      if (/^[-–]\s?(?:born|language|speaking)|^\s+(?:language|descent|origin)/i.test(s.slice(end, end + 24))) break;
      found.push({ country, said, at: m.index!, end });
      // The rest of the run may name another ("Armenian American"): read it as a run of its own.
      const next = run[n];
      const nextCountry = next ? countryNamed(next) : undefined;
      if (nextCountry) found.push({ country: nextCountry, said: next!, at: end + 1, end: end + 1 + next!.length });
      break;
    }
  }
  return found;
}

/** The first number a text writes that is no year of a date ("3,400", "12.5"). */
export function quantityIn(text: string): { value: number; text: string } | null {
  for (const m of text.matchAll(/(?<![\p{L}\d])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand))?/gu)) {
    const n = Number(m[1]!.replace(/,/g, ""));
    if (!m[2] && /^(?:1\d{3}|20\d{2})$/.test(m[1]!)) continue;
    const scale = m[2] === "billion" ? 1e9 : m[2] === "million" ? 1e6 : m[2] === "thousand" ? 1e3 : 1;
    return { value: n * scale, text: m[0] };
  }
  return null;
}

/** A name's style after a comma: "Thomas FitzGerald, 7th Earl of Desmond", "Otto I, Count of Guelders". */
const STYLE = new RegExp(`^,\\s+(?:(?:\\d+(?:st|nd|rd|th)|[IVX]+)\\s+)?(?:${[...MALE_TITLES, ...FEMALE_TITLES].join("|")})\\b`, "i");

/**
 * Runs of capitalized words a sentence writes (a name: "Aga Khan III", "Geoffrey of Monmouth"), with where each
 * starts; a run followed by its style after a comma is one name with it.
 */
export function namesIn(text: string): { name: string; at: number }[] {
  const runs = capitalRuns(text);
  const out: { name: string; at: number }[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    const next = runs[i + 1];
    const between = next ? text.slice(run.at + run.name.length, next.at) : "";
    if (next && /^,\s+(?:(?:\d+(?:st|nd|rd|th)|[IVX]+)\s+)?$/i.test(between) && STYLE.test(text.slice(run.at + run.name.length))) {
      out.push({ name: text.slice(run.at, next.at + next.name.length), at: run.at }, run);
      i++;
    } else out.push(run);
  }
  return out;
}

function capitalRuns(text: string): { name: string; at: number }[] {
  const run = /\p{Lu}[\p{L}\p{N}'’.-]*(?:(?:\s+|\s+(?:of|de|da|del|della|di|van|von|der|den|la|le|du|al|bin|ibn|the|y)\s+)\p{Lu}[\p{L}\p{N}'’.-]*)*/gu;
  const out: { name: string; at: number }[] = [];
  for (const m of text.matchAll(run)) {
    const name = m[0].replace(/^(?:The|A|An|In|On|At|By|His|Her|Their|He|She|It|They|This|That)\s+/, "").replace(/[.,]$/, "");
    if (name.length > 2 && !/^(?:The|A|An|In|On|At|By|His|Her|Their|He|She|It|They|This|That|However|After|Before)$/.test(name)) out.push({ name, at: m.index! + m[0].indexOf(name) });
  }
  return out;
}
