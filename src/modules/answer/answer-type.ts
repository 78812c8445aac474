// The kind of answer a question asks for (a person, a place, a time, a quantity, a reason) and whether a
// sentence holds one: "When was ADR-005 accepted?" wants a date, "What does it cost?" an amount of money.
import { stem } from "./sentences";

export type AnswerType = "person" | "place" | "time" | "quantity" | "reason";

/** The kind of answer a question asks for, from its wh-words (English; other languages ask for no kind). */
export function expectedAnswerType(question: string): AnswerType | null {
  const q = question.toLowerCase();
  // The first wh-phrase asks; a later one opens a clause ("where does the architect WHO designed it come from").
  let first: { at: number; type: AnswerType } | null = null;
  for (const [type, pattern] of WH_PHRASES) {
    const at = q.search(pattern);
    if (at >= 0 && (first === null || at < first.at)) first = { at, type };
  }
  return first?.type ?? null;
}

/** "What caused X", "what is the reason for X": the answer gives a cause, which it need not call one. */
const REASON_ASKED = /\bwhat (caused|causes|cause)\b|\bwhat (?:is|was|were|are) the (cause|causes|reason|reasons)\b/;
/**
 * A sentence giving a cause: "because", "due to", "caused by", "led to", "after a kernel upgrade" (not "after
 * seven minutes", "after an hour": a time).
 */
const REASON_GIVEN =
  /\b(?:because|due to|caused by|as a result|owing to|result(?:ed|s)? (?:of|from)|led to|leads? to|triggered|root cause|so that|after(?!\s+(?:\d|(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|several|some|many|a few)\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|the (?:first|last|end)\b)))\b/i;
/**
 * A price asked for without "how much": "What does an extra label COST on Scale?", "what is the PRICE of …",
 * "what are the FEES for …". An amount answers the cue word, as a number answers "how many".
 */
const PRICE_ASKED = /\bwhat (?:does|do|did|will|would|should)\b(?:\s+[\p{L}\p{N}'’-]+){1,8}?\s+(cost)\b|\bwhat (?:is|are|was|were) the (?:\p{L}+ )?(price|cost|fee|charge)s?\b|\b(?:what|which|in what) (currency)\b/u;
/** A question asking for a price: "what does … cost", "what is the fee …", "how much is the fee / does it cost", "what currency …". */
export const asksPrice = (question: string) => PRICE_ASKED.test(question.toLowerCase()) || (/\bhow much\b/i.test(question) && /\b(?:cost|price|fee|charge)s?\b/i.test(question));
const WH_PHRASES: [AnswerType, RegExp][] = [
  ["quantity", /\bhow (many|much|long|old|far|big|tall|high|often|large|fast|deep)\b|\bwhat (percentage|number|amount)\b/],
  ["quantity", PRICE_ASKED],
  ["time", /\bwhen\b|\bwhat (year|date|day|month|time|century|decade)\b|\bwhich (year|century)\b/],
  ["person", /\b(who|whom|whose)\b/],
  ["place", /\bwhere\b/],
  ["reason", REASON_ASKED],
];

/** The words of the question's wh-phrase that name the kind of answer (stems). */
export function cueWords(question: string): Set<string> {
  const q = question.toLowerCase();
  const found = [...q.matchAll(/\bhow (many|much|long|old|far|big|tall|high|often|large|fast|deep|wide|heavy)\b|\bwhat (percentage|number|amount|year|date|day|month|time|century|decade)\b|\bwhich (year|century)\b/g)];
  const reasons = [...q.matchAll(new RegExp(REASON_ASKED.source, "g"))].map((m) => m[1] ?? m[2]!);
  // "How much does it COST", "what is the PRICE": the money word is answered by an amount.
  const price = asksPrice(q) ? [...q.matchAll(/\b(cost|price|fee|charge|currency)s?\b/g)].map((m) => m[1]!) : [];
  // "When was 4.2.0 RELEASED?": a release's date answers the verb ("## 4.2.0 (2026-10-14)").
  const released = /\bwhen\b/.test(q) ? [...q.matchAll(/\b(released|launched|published|shipped)\b/g)].map((m) => m[1]!) : [];
  return new Set([...found.map((m) => stem(m[1] ?? m[2] ?? m[3]!)), ...reasons.map(stem), ...price.map(stem), ...released.map(stem)]);
}

/**
 * A year ("1848", "the 1990s"): not an identifier's number ("ADR-005", "PROJ-2291"), one written with a
 * leading zero, nor an amount's thousands ("a balance of 18,450 dollars").
 */
const YEAR = /(?<!\p{L}[-_/]|#|\d,)\b[1-9]\d{2,3}s?\b(?!,\d)/u;
const YEARS = new RegExp(YEAR.source, "gu");
/**
 * A year in the text. Three digits after a capitalized word are a code's number, not a year ("CS 241",
 * "Gates 314", "Boeing 747"), unless the word opens a date ("In 410", "AD 79" is an era, below).
 */
function holdsYear(text: string): boolean {
  for (const m of text.matchAll(YEARS)) {
    if (!/^\d{3}s?$/.test(m[0])) return true;
    const before = /(\p{Lu}[\p{L}.]*)\s+$/u.exec(text.slice(0, m.index));
    if (!before || DATE_OPENERS.test(before[1]!)) return true;
  }
  return false;
}
const DATE_OPENERS = /^(?:in|by|from|to|since|until|till|circa|c\.|around|about|before|after|year|during)$/i;
const CALENDAR_WORD = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)[.,;:]?$/i;
const MONTHS = /\b(january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter)\b/i;
/** Times of day and of the week, and how often: "at 7:30", "on Mondays", "monthly", "every morning", "in the morning", "at dusk" (not a price's "£7.00", "0.30 euros"). */
const TIMES =
  /(?<![£$€¥₹]\s?)\b\d{1,2}[:.]\d{2}\b(?!\s*(?:euros?|dollars?|pounds?|pence|cents?|eur|usd|gbp|%|percent)\b)|\b\d{1,2} ?(?:am|pm)\b|\b(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|weekends?|daily|weekly|fortnightly|monthly|quarterly|yearly|annually|tonight|today|tomorrow|yesterday|midnight|noon|o'clock)\b|\bevery (?:day|week|month|year|morning|evening|night)\b|\b(?:first|last) (?:working |business )?day of\b|\b(?:in the|this|each|early in the|late in the) (?:morning|afternoon|evening)\b|\bat (?:night|dawn|dusk|sunrise|sunset|bedtime)\b/i;
/**
 * A place said as one: a table's location cell ("Location: London", "Office: Madrid"; an infobox flattened
 * into prose, "Address Fiorello H. LaGuardia …", has no colon), "based in", "located in", "headquartered
 * in", a street address ("is at Rua das Flores 112", "is at 221 Baker Street"), or a path (PATH).
 */
const PLACE_SAID = /\b(?:location|city|country|office|address|site|region|headquarters)\s*:\s*\p{Lu}|\b(?:based|located|headquartered)\s+(?:in|at)\s+\p{Lu}/iu;
/** A street address after "is at" (capitals as written: "is at least 5" is none). */
const STREET_ADDRESS = /\b(?:is|are)\s+at\s+(?:\d+\s+\p{Lu}\p{L}+|\p{Lu}\p{L}+(?:\s+\p{L}+){0,3}\s+\d)/u;
export const saysPlace = (text: string) => PLACE_SAID.test(text) || STREET_ADDRESS.test(text) || PATH.test(text);

/**
 * A file system path or a web address: "~/.config/x", "./data", "/etc/hosts", "C:\\Users", "https://…"; not
 * an API's endpoint after its method ("POST /v1/orders" is no place).
 */
const PATH = /(?<!\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ?)(?:^|[\s`'"(])(?:(?:~|\.{1,2})\/[\w.-]|\/[\w.-]+\/[\w.-])|\b[A-Z]:\\|\bhttps?:\/\/\S/;
const NUMBER_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|several|once|twice|every|daily|weekly|monthly|yearly|annually|times)\b/i;

/**
 * Whether the text holds the asked-for kind of answer (a capitalized word the question does not name, for a
 * person or place; for a quantity, the `measure` asked for when there is one: measures.ts).
 */
export function holdsAnswerType(text: string, type: AnswerType, questionStems: Set<string>, measure: RegExp | null = null): boolean {
  if (type === "quantity" && measure) return measure.test(text);
  switch (type) {
    case "time":
      // An era only with its number ("AD 79", "300 BC"): "Azure AD" is no time.
      return holdsYear(text) || MONTHS.test(text) || /\b(?:century|centuries|decade)\b|\b\d+\s*(?:bc|bce|ad|ce)\b|\b(?:ad|ce)\s*\d+/i.test(text) || TIMES.test(text);
    case "quantity":
      return /\d/.test(text) || NUMBER_WORDS.test(text);
    case "reason":
      return REASON_GIVEN.test(text);
    case "place":
      // Where a file or a setting lives: a path ("~/.config/tern/config.toml", "/var/log", "C:\\Temp") or an address.
      if (PATH.test(text)) return true;
    // falls through: a named place
    case "person":
      // A capitalized word the question did not already name (not the sentence's first word), nor a month or
      // a day ("Engineering sync, 13 October 2026" names no one).
      return (text.match(/(?<=\s)\p{Lu}[\p{L}'’.-]*/gu) ?? []).some((w) => !CALENDAR_WORD.test(w) && !questionStems.has(stem(w.toLowerCase().replace(/[’'.-]+$/, ""))));
  }
}
