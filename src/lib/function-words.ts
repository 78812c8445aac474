// Function words, and the language a text's function words say it is in. Teams write handbooks in German,
// French, Spanish or Dutch too; their questions' function words ("wie", "wird", "für") are unknown to the
// English stopword list and to the English frequency table, so they weighed as much as the rarest names
// and a German question over German pages was thin. A question is taken to be in one of these languages when
// more of its words are that language's function words than are English ones, and at least two are, or one
// that English does not use ("wer", not "die" or "con"); then those words are dropped too (retrieval/terms.ts).
// An English question is never touched. The sentence splitter asks the same of a text that writes ordinals
// as "2." (lib/sentence-ends.ts).
import { englishFrequency } from "./english-frequency";

/** ~50 of the commonest English function words (the full-text search's stopwords: retrieval/terms.ts). */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this those to was we were what " +
    "when where which who whom why will with would you your"
  ).split(" "),
);

/** The commonest function words of each language (articles, pronouns, prepositions, auxiliaries, wh-words). */
const FUNCTION_WORDS: Record<string, ReadonlySet<string>> = {
  de: words(
    "der die das den dem des ein eine einen einem einer eines und oder aber ist sind war waren wird werden wurde hat haben habe " +
      "hatte ich du er sie es wir ihr mich mir dich dir sich mein meine dein nicht kein keine auch noch schon nur wie was wer wen " +
      "wem wo wann warum welche welcher welches wieso weshalb zu zum zur im in am an auf aus bei mit nach von vor für über unter " +
      "um durch bis gibt kann können muss müssen soll sollen darf dürfen viel viele wieviel wieviele man dass ob wenn als so",
  ),
  fr: words(
    "le la les l un une des du de d et ou mais est sont était être a ont avoir je j tu il elle nous vous ils elles me te se mon " +
      "ma mes ne n pas plus que qu qui quoi quel quelle quels quelles où quand comment pourquoi combien dans en sur sous pour par ai " +
      "avec sans au aux ce cet cette ces y peut faut",
  ),
  es: words(
    "el la los las un una unos unas y o pero es son era está están ser estar ha han he yo tú él ella nosotros ellos me te se mi " +
      "mis no sí que qué quién quien cuál cuándo cuando dónde donde cómo como cuánto cuántos cuánta cuántas en de del al con sin " +
      "para por sobre puedo puede hay",
  ),
  nl: words(
    "de het een en of maar is zijn was waren wordt worden heeft hebben ik jij je hij zij ze wij we mij me niet geen ook nog wat " +
      "wie waar wanneer waarom hoe hoeveel welke van in op aan bij met voor naar uit door over om te er kan moet mag heb",
  ),
};

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}

/** The language of these words (lower-cased), when they read as German, French, Spanish or Dutch rather than English. */
export function foreignLanguage(words: readonly string[]): string | null {
  const englishHits = words.filter((w) => ENGLISH_STOPWORDS.has(w)).length;
  let best: { language: string; hits: number } | null = null;
  for (const [language, set] of Object.entries(FUNCTION_WORDS)) {
    const found = words.filter((w) => set.has(w));
    const hits = found.length;
    const enough = hits >= 2 || (hits === 1 && !isEnglishWord(found[0]!));
    if (enough && hits > englishHits && hits > (best?.hits ?? 0)) best = { language, hits };
  }
  return best?.language ?? null;
}

/** The function words to drop from a question's words beyond English's: its language's, or none. */
export function foreignFunctionWords(words: readonly string[]): ReadonlySet<string> {
  const language = foreignLanguage(words);
  return language ? FUNCTION_WORDS[language]! : NONE;
}

const NONE: ReadonlySet<string> = new Set();
/** A word English subtitles use at least this often (SUBTLEX counts of 51M words) is an English word too. */
const ENGLISH_COUNT = 100;
const isEnglishWord = (word: string) => (englishFrequency().counts.get(word) ?? 0) >= ENGLISH_COUNT;
