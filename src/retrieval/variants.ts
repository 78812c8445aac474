// Other ways a page may write a question's word: British or American spelling ("organisation" ↔
// organization, "centre" ↔ center) and the short forms of technical and office writing ("config" ↔
// configuration, "max" ↔ maximum). A team's handbook is written one way and asked the other; the search
// matches the variants as extra terms and the evidence counts them as the word (as it does joined pairs).
import { englishFrequency } from "../lib/english-frequency";
import { STOPWORDS } from "./terms";

export interface TermVariant {
  /** The question's term. */
  term: string;
  /** Another way of writing it. */
  variant: string;
}

/**
 * Short forms and what they stand for. Only ones with a single reading in a question: "ref" (referee),
 * "arch" and "min" (minute, a name) are left out.
 */
const SHORT_FORMS: Record<string, string[]> = {
  config: ["configuration", "configure"],
  configs: ["configurations"],
  info: ["information"],
  repo: ["repository"],
  repos: ["repositories"],
  admin: ["administrator", "administration"],
  admins: ["administrators"],
  auth: ["authentication", "authorization"],
  env: ["environment"],
  envs: ["environments"],
  max: ["maximum"],
  app: ["application"],
  apps: ["applications"],
  dev: ["development", "developer"],
  devs: ["developers"],
  prod: ["production"],
  db: ["database"],
  dbs: ["databases"],
  doc: ["documentation", "document"],
  docs: ["documentation", "documents"],
  spec: ["specification"],
  specs: ["specifications"],
  sync: ["synchronization", "synchronize"],
  stats: ["statistics"],
  approx: ["approximately"],
  dept: ["department"],
  govt: ["government"],
  mgmt: ["management"],
  mgr: ["manager"],
  qty: ["quantity"],
  msg: ["message"],
  msgs: ["messages"],
  pwd: ["password"],
  temp: ["temporary", "temperature"],
  org: ["organization", "organisation"],
  orgs: ["organizations", "organisations"],
  intl: ["international"],
  addr: ["address"],
  perf: ["performance"],
  impl: ["implementation"],
  param: ["parameter"],
  params: ["parameters"],
  arg: ["argument"],
  args: ["arguments"],
  dir: ["directory"],
  dirs: ["directories"],
  lib: ["library"],
  libs: ["libraries"],
  pkg: ["package"],
  infra: ["infrastructure"],
  k8s: ["kubernetes"],
  vs: ["versus"],
};
/**
 * Initialisms of office writing and what they stand for, searched as phrases: "Who is the CEO?" of "the chief
 * executive of Northwind" was thin. Only ones with a single reading ("pr", "ops", "it" are left out).
 */
const INITIALISMS: Record<string, string> = {
  ceo: "chief executive",
  cfo: "chief financial officer",
  cto: "chief technology officer",
  coo: "chief operating officer",
  hr: "human resources",
  pto: "paid time off",
  wfh: "work from home",
  sla: "service level agreement",
  kpi: "key performance indicator",
  kpis: "key performance indicators",
  okr: "objectives and key results",
  okrs: "objectives and key results",
  qa: "quality assurance",
  eta: "estimated time of arrival",
  roi: "return on investment",
  faq: "frequently asked questions",
  faqs: "frequently asked questions",
  sso: "single sign on",
  mfa: "multi factor authentication",
  "2fa": "two factor authentication",
  vpn: "virtual private network",
  ta: "teaching assistant",
  tas: "teaching assistants",
  agm: "annual general meeting",
  egm: "extraordinary general meeting",
  hoa: "homeowners association",
  nda: "non disclosure agreement",
  ndas: "non disclosure agreements",
  dpa: "data processing agreement",
  msa: "master services agreement",
  rfp: "request for proposal",
  rfps: "requests for proposal",
  eod: "end of day",
  ooo: "out of office",
  dob: "date of birth",
  amex: "american express",
};
/**
 * Everyday phrases for the one word policies and help pages write instead: "Can I get my money back?" is asked
 * of "We refund annual plans …", "How much time off do I get?" of a leave policy. One way only: a page saying
 * "refund" answers "money back", a page saying "back" does not answer "refund".
 */
const PARAPHRASES: Record<string, string> = {
  "money back": "refund",
  "time off": "leave",
  "day off": "leave",
  "days off": "leave",
  "sick day": "sick leave",
  "sick days": "sick leave",
  // A changelog lists versions without the word: "What is the latest version?" of one.
  version: "changelog",
  versions: "changelog",
  release: "changelog",
  releases: "changelog",
};
/** Each initialism's phrase, and each paraphrase, as a question's terms are (no stopwords): "estimated time arrival". */
const PHRASE_TERMS = [...Object.entries(INITIALISMS), ...Object.entries(PARAPHRASES).map(([phrase, word]) => [word, phrase] as const)].map(([short, phrase]) => ({
  short,
  words: phrase.split(" ").filter((w) => !STOPWORDS.has(w)),
}));

const LONG_FORMS = new Map<string, string[]>();
for (const [short, longs] of Object.entries(SHORT_FORMS)) for (const long of longs) LONG_FORMS.set(long, [...(LONG_FORMS.get(long) ?? []), short]);

/** "-our" words that are no British spelling ("four" is not "for"). */
const OUR_WORDS = new Set(["hour", "four", "flour", "pour", "tour", "sour", "your", "contour", "detour", "devour", "dour", "amour", "velour", "troubadour", "paramour", "scour"]);
/** British "-re" words and their stems' American "-er" (and the words ending in them: "kilometre", "epicentre"). */
const RE_WORDS = ["centre", "theatre", "metre", "litre", "fibre", "calibre", "sombre", "spectre", "lustre", "meagre", "sabre", "mitre", "ochre", "sceptre", "saltpetre"];
/** Whole-word pairs no suffix rule finds. */
const WORD_PAIRS: [string, string][] = [
  ["grey", "gray"],
  ["programme", "program"],
  ["programmes", "programs"],
  ["aluminium", "aluminum"],
  ["plough", "plow"],
  ["mould", "mold"],
  ["sceptic", "skeptic"],
  ["sceptical", "skeptical"],
  ["jewellery", "jewelry"],
  ["pyjamas", "pajamas"],
  ["manoeuvre", "maneuver"],
];
const PAIRED = new Map<string, string>([...WORD_PAIRS, ...WORD_PAIRS.map(([a, b]) => [b, a] as [string, string])]);

/** Suffix rewrites, British → American, each with the endings of its inflected forms. */
const SUFFIXES: [RegExp, string][] = [
  [/our(s|ed|ing|ful|ite|ites|able|er|ers)?$/, "or$1"], // colour, favourite, honourable, labourers
  [/is(e|es|ed|ing|er|ers|ation|ations|ational)$/, "iz$1"], // organise, realised, organisation
  [/ys(e|es|ed|ing)$/, "yz$1"], // analyse, paralysed
  [/ence(s)?$/, "ense$1"], // licence, defence, offence
  [/ogue(s)?$/, "og$1"], // catalogue, dialogue, analogue
  [/ell(ed|ing|er|ers)$/, "el$1"], // travelled, cancelled, labelling, modeller
  [/ae/, "e"], // anaemia, paediatric, archaeology, encyclopaedia
  [/oe(?=[^s]|s.)/, "e"], // oestrogen, foetus, diarrhoea
];

/** A rewrite is trusted when both spellings are English words, or the word is long and the suffix productive (-isation). */
function isWord(word: string): boolean {
  return (englishFrequency().counts.get(word) ?? 0) > 0;
}

/** The American spelling of a British one, or null. */
function american(word: string): string | null {
  const paired = PAIRED.get(word);
  if (paired !== undefined) return WORD_PAIRS.some(([uk]) => uk === word) ? paired : null;
  for (const re of RE_WORDS) {
    const at = word.lastIndexOf(re);
    if (at >= 0 && /^(?:s|d)?$/.test(word.slice(at + re.length))) return `${word.slice(0, at)}${re.slice(0, -2)}er${word.slice(at + re.length).replace(/^d$/, "ed")}`;
  }
  if (word.length < 6) return null;
  if (OUR_WORDS.has(word.replace(/(s|ed|ing|ful|ite|ites|able|er|ers)$/, ""))) return null;
  for (const [pattern, replacement] of SUFFIXES) {
    if (!pattern.test(word)) continue;
    const us = word.replace(pattern, replacement);
    if (us !== word && ((isWord(us) && isWord(word)) || (word.length >= 10 && /is(ation|ational)s?$/.test(word)))) return us;
  }
  return null;
}

/** The British spelling of an American one, or null (tried by rewriting back and checking the result). */
function british(word: string): string | null {
  const paired = PAIRED.get(word);
  if (paired !== undefined) return WORD_PAIRS.some(([, us]) => us === word) ? paired : null;
  for (const re of RE_WORDS) {
    const er = `${re.slice(0, -2)}er`;
    const at = word.lastIndexOf(er);
    if (at >= 0 && /^(?:s|ed)?$/.test(word.slice(at + er.length))) return `${word.slice(0, at)}${re}${word.slice(at + er.length).replace(/^ed$/, "d")}`;
  }
  if (word.length < 5) return null;
  const candidates = [
    word.replace(/or(s|ed|ing|ful|ite|ites|able|er|ers)?$/, "our$1"),
    word.replace(/iz(e|es|ed|ing|er|ers|ation|ations|ational)$/, "is$1"),
    word.replace(/yz(e|es|ed|ing)$/, "ys$1"),
    word.replace(/ense(s)?$/, "ence$1"),
    word.replace(/og(s)?$/, "ogue$1"),
    word.replace(/el(ed|ing|er|ers)$/, "ell$1"),
    // "pediatric" ↔ paediatric, "fetus" ↔ foetus: an "e" that British writes "ae" or "oe".
    ...[...word.matchAll(/(?<=.)e/g)].flatMap((m) => ["a", "o"].map((l) => `${word.slice(0, m.index)}${l}${word.slice(m.index)}`)),
  ];
  return candidates.find((uk) => uk !== word && american(uk) === word) ?? null;
}

/**
 * The other spellings and forms of a query's terms (none for a term written only one way). An initialism's
 * variant is its phrase ("ceo" → "chief executive", searched as a phrase); the terms of a phrase that has an
 * initialism each have the initialism ("chief", "executive" → "ceo"), and those of a paraphrase its word
 * ("money", "back" → "refund").
 */
export function termVariants(terms: readonly string[]): TermVariant[] {
  const out: TermVariant[] = [];
  const seen = new Set(terms);
  for (const term of terms) {
    const forms = [...(SHORT_FORMS[term] ?? []), ...(LONG_FORMS.get(term) ?? []), american(term), british(term), INITIALISMS[term] ?? null];
    for (const variant of forms) {
      if (variant === null || seen.has(variant)) continue;
      seen.add(variant);
      out.push({ term, variant });
    }
  }
  for (const { short, words } of PHRASE_TERMS) {
    const at = terms.findIndex((_, i) => words.every((w, k) => terms[i + k] === w));
    if (at >= 0 && !terms.includes(short)) for (const term of terms.slice(at, at + words.length)) out.push({ term, variant: short });
  }
  return out;
}
