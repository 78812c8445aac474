// Word kinds the phrase finder reads by form or by list: currencies, acronyms, seasons, instruction verbs,
// name joiners, demonyms, model numbers, calendar names and units.
import { CURRENCY_CODE as CURRENCY_CODES, CURRENCY_SIGN } from "../lib/currency";
import { englishFrequency } from "../lib/english-frequency";

/** A currency sign as the tagger splits it from its amount ("£", "55"), or a currency's code after it. */
export const CURRENCY = new RegExp(`^${CURRENCY_SIGN}$`);
export const CURRENCY_CODE = new RegExp(`^(?:${CURRENCY_CODES})$`, "i");

/** A capitalized word of letters only ("Shopify"), not in capitals throughout. */
export const UNKNOWN_NAME = /^\p{Lu}\p{Ll}+$/u;
/** A word in capitals: two to six letters or digits, a letter first ("UPS", "CN22"). */
export const ACRONYM = /^[A-Z][A-Z0-9]{1,5}$/;
export const ACRONYM_IN_TEXT = /\b[A-Z][A-Z0-9]{1,5}\b/;
/** Occurrences in SUBTLEX above which a word in capitals is read as the word ("ups" 130: a name; "free" 9,054). */
export const COMMON_WORD_COUNT = 500;
export const isAcronym = (word: string) => ACRONYM.test(word) && (englishFrequency().counts.get(word.toLowerCase()) ?? 0) < COMMON_WORD_COUNT;
/** A season, capitalized before a year as a month is ("Fall 2016"). */
export const SEASON = /^(?:Spring|Summer|Autumn|Fall|Winter)$/;

/**
 * Verbs that open instructions in runbooks, handbooks and guides. A list, not the tagger: out of context it
 * reads "summer", "bill" or "mark" as verbs too ("Summer Glau", "Bill Gates").
 */
export const INSTRUCTION_VERBS = new Set(
  ("use ask run open install download upload check click select add create set enable disable turn restart start stop " +
    "contact email send see visit update upgrade configure deploy book submit request report lock follow copy paste type " +
    "enter choose press tap navigate launch connect join invite ping message tell notify review approve sign log go read").split(" "),
);
/** Conjunctions that also read as other words out of context ("a while", "as" tagged as a name's part). */
export const OPENERS = new Set(["while", "as", "when", "after", "before", "since", "once", "until", "though", "although", "because", "if", "unless", "whereas", "whilst"]);
/** Parts of speech of a sentence's first word that is never part of the name after it. */
export const OPENING_FUNCTION_WORD = new Set(["SCONJ", "ADP", "ADV", "CCONJ", "DET", "PRON", "AUX", "PART"]);

/** Lower-case words that join the parts of one name ("University of Paris", "Charles de Gaulle"). */
export const NAME_JOINERS = new Set(["of", "de", "du", "da", "del", "della", "von", "van", "der", "den", "la", "le"]);
/**
 * A possessive mark (its own token) inside a name: before a generic head only ("Mariners' Institute", "St
 * John's College"), since "Curie's Radium Institute" is a person's, not part of one name.
 */
export const POSSESSIVE = new Set(["'", "’", "'s", "’s"]);
/** Parts of speech a sentence's capitalized first word has when it is not part of a name ("The", "In"). */
export const NOT_NAME_START = new Set(["DET", "PRON", "ADP", "ADV", "CCONJ", "SCONJ", "AUX", "PART", "VERB", "NUM"]);
export const CAPITALIZED = /^\p{Lu}/u;

export const DEMONYM =
  /^(?:American|Australian|Austrian|Belgian|Brazilian|British|Canadian|Chinese|Cuban|Czech|Danish|Dutch|Egyptian|English|Finnish|French|German|Greek|Hungarian|Indian|Irish|Italian|Japanese|Korean|Mexican|Moroccan|Norwegian|Persian|Polish|Portuguese|Russian|Scottish|Spanish|Swedish|Swiss|Thai|Turkish|Vietnamese|Welsh)$/;
export const MODEL_NUMBER = /^\d{1,3}$/;
export const CALENDAR_NAME = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|spring|summer|autumn|fall|winter|week|day|page|step|chapter|section|part|table|figure|room|gate|platform|level|floor)$/i;
export const UNIT_WORD = /^(?:%|percent|[kmc]?m|mi|miles?|km|kg|g|grams?|kilos?|lbs?|pounds?|t|tons?|tonnes?|ft|feet|inch(?:es)?|°c?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|yrs?|[kmgt]b|[kmg]?w|v|mah|euros?|dollars?|eur|usd|gbp|x|times|people|users|seats)$/i;
