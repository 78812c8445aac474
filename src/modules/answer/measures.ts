// What a "how long / how old / how far / how tall / how often / how fast" question asks for: not any number
// but a measure of that kind. Held to any number, "How long is Ex on the Beach on for?" was answered in full
// by "It features eight single men and women …" (the "long" of the question counted as said by "eight").
// "How many" and "how much" take a count or an amount but not a year; "how big" and the rest any number.

import { CURRENCY_SIGN, MONEY } from "../../lib/currency";
import { asksPrice } from "./answer-type";

const NUMBER = String.raw`(?:\d[\d,.]*|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|a few|several|half an?)`;
/** Between a number and its unit: a space or hyphen, and perhaps one word ("5 to 7 business days", "two full weeks"). */
const SPACE = String.raw`[\s-]*(?:[a-z]+\s+)?`;
/** "second" before a word is the ordinal ("a second UPS battery"), except in "a second or two". */
const DURATION = String.raw`(?:seconds|second(?![ \t]+(?!or\b|and\b|to\b)[a-z])|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|yrs?|decades?|centur(?:y|ies)|seasons?|episodes?)`;
/**
 * Units of length. "in" (inches) only right after its number and not before a word: "5,210 participants in
 * total" is no length, nor "3 in the morning".
 */
const LENGTH = String.raw`(?:m|km|cm|mm|metres?|meters?|kilometres?|kilometers?|miles?|mi|feet|foot|ft|inch(?:es)?|(?<=\d\s?)in(?!\s+[a-z])|yards?|yd|nautical miles?)`;
/**
 * A span of years ("from 1914 to 1918", "1990–1995", "since 2004") or hours ("from 22:00 to 7:00") says how long
 * as well; a date ("2026-01-03") does not.
 */
const YEAR_SPAN = String.raw`\b(?:\d{3,4}\s*(?:-|–|—|to|until|till)\s*\d{2,4}(?![-/.]\d)|since \d{3,4}|until \d{3,4}|\d{1,2}[:.]\d{2}\s*(?:-|–|—|to|until|till)\s*\d{1,2}[:.]\d{2})\b`;

/** The length of a text or a value: "up to 255 characters", "a 300-page report", "64 KB". */
const TEXT_LENGTH = String.raw`(?:characters?|chars?|bytes?|[kmg]i?b|words?|digits?|letters?|lines?|pages?)`;

/** A time said without a number: "same day", "overnight", "a few weeks", "half an hour". */
const DURATION_WORDS = String.raw`\b(?:same[\s-]day|next[\s-]day|overnight|immediately|instantly|(?:an?|half an?|a few|a couple of|several)\s+${DURATION})\b`;

const MEASURES: Record<string, RegExp> = {
  long: new RegExp(String.raw`\b${NUMBER}${SPACE}(?:${DURATION}|${LENGTH}|${TEXT_LENGTH})\b|${YEAR_SPAN}|${DURATION_WORDS}`, "i"),
  old: new RegExp(String.raw`\b${NUMBER}${SPACE}(?:years?|yrs?|months?|weeks?|days?)\b|\bage[sd]?\s+\d|\b(?:born|founded|established|built|since|in)\s+(?:\w+\s+){0,2}\d{3,4}\b`, "i"),
  far: new RegExp(String.raw`\b${NUMBER}${SPACE}(?:${LENGTH}|light[\s-]years?|au|${DURATION})\b`, "i"),
  tall: new RegExp(String.raw`\b${NUMBER}${SPACE}${LENGTH}\b`, "i"),
  high: new RegExp(String.raw`\b${NUMBER}${SPACE}(?:${LENGTH}|%|percent|per ?cent)\b|\d\s*%`, "i"),
  deep: new RegExp(String.raw`\b${NUMBER}${SPACE}(?:${LENGTH}|fathoms?)\b`, "i"),
  wide: new RegExp(String.raw`\b${NUMBER}${SPACE}${LENGTH}\b`, "i"),
  often: /\b(?:daily|weekly|fortnightly|monthly|quarterly|yearly|annually|hourly|nightly|once|twice|thrice|every|each|times|per|a (?:day|week|month|year)|an hour)\b/i,
  // A count or an amount, not a year ("ran its roastery until 2015" is no answer to "how much coffee"),
  // unless what it counts follows ("2000 employees").
  many: new RegExp(
    String.raw`${CURRENCY_SIGN}\s?\d|\b(?!(?:1[5-9]|20)\d\d\b)\d[\d,.]*(?:\b|%)|\b(?:1[5-9]|20)\d\d\s+(?!(?:was|is|as|has|this|his|its)\b)[a-z]+s\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?|half|third|quarter|several|once|twice|none|no)\b`,
    "i",
  ),
  // A speed, or how long a thing takes ("How fast does it fold?": "folds in 15 seconds"; "… charge?": "2.5 hours").
  fast: new RegExp(String.raw`\b${NUMBER}${SPACE}(?:km\/h|kph|mph|knots?|m\/s|${LENGTH} (?:per|an|a) (?:hour|second|minute))|\bper (?:hour|second|minute)\b|\b${NUMBER}${SPACE}${DURATION}\b`, "i"),
};

const PRICE = new RegExp(String.raw`${MONEY.source}|\b(?:(?:is|are|for) free|free of charge|no charge|cents?)\b`, "i");

/** The measure a quantity question asks for ("how long": a duration or length), or null: any number answers. */
export function measureAsked(question: string): RegExp | null {
  // "What does it cost?", "how much is the fee?", "what is the price of …": an amount of money, or "free"
  // ("kept for 7 years" holds a number, not a price).
  if (asksPrice(question)) return PRICE;
  const cue = /\bhow (long|old|far|tall|high|deep|wide|often|fast|many|much)\b/i.exec(question);
  if (!cue) return null;
  const asked = cue[1]!.toLowerCase();
  // "How many years …" asks how long, in years (a span of years answers it).
  if (asked === "many" && /\bhow many (?:years|months|weeks|days|hours|minutes|seconds|centuries|decades)\b/i.test(question)) return MEASURES.long!;
  return MEASURES[asked === "much" ? "many" : asked]!;
}
