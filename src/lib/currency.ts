// Money as text: the currency signs and codes that concept extraction (a verb read as a noun before a price)
// and answers (a column of prices, an amount asked for) recognize, spelled once.

/** A currency sign, as a regular-expression character class. */
export const CURRENCY_SIGN = "[£$€¥₹]";
/** A currency's code or name after an amount ("40 EUR", "12 dollars"), as an alternation. */
export const CURRENCY_CODE = "eur|usd|gbp|chf|jpy|cad|aud|euros?|dollars?|pounds?";
/** An amount of money: a sign before a number, or a code or name after one. */
export const MONEY = new RegExp(String.raw`${CURRENCY_SIGN}\s?\d|\d[\d,.]*\s*(?:${CURRENCY_CODE})\b`, "i");
