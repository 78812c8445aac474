// English words for the relations a multi-hop question asks about (frame.ts, shapes/): who stands in which
// relation to whom, what an attribute is said with, and the kinship words that are two hops in one.

/** Relations that lead from one named thing to another (a person, a work, an organisation): a hop. */
export const PERSON_RELATIONS = [
  "father", "mother", "parent", "wife", "husband", "spouse", "son", "daughter", "child", "sibling", "brother", "sister",
  "director", "composer", "performer", "producer", "founder", "author", "writer", "creator", "screenwriter", "editor",
  "cinematographer", "publisher", "owner", "designer", "architect", "developer", "manufacturer", "singer", "artist",
  "star", "actor", "actress", "presenter", "successor", "predecessor", "coach", "manager", "leader", "heir", "partner",
] as const;

/**
 * Words a page says a relation with, besides the relation's own word: "directed by", "the son of", "married".
 * Read as plain lower-case phrases.
 */
export const RELATION_CUES: Record<string, readonly string[]> = {
  father: ["father", "son of", "daughter of", "child of", "born to", "sired"],
  mother: ["mother", "son of", "daughter of", "child of", "born to"],
  parent: ["father", "mother", "son of", "daughter of", "child of", "born to"],
  wife: ["wife", "married", "marriage", "wedding", "spouse", "consort"],
  husband: ["husband", "married", "marriage", "wedding", "spouse", "consort"],
  spouse: ["married", "marriage", "wedding", "wife", "husband", "spouse", "consort"],
  son: ["son", "children", "child", "father of", "mother of"],
  daughter: ["daughter", "children", "child", "father of", "mother of"],
  child: ["son", "daughter", "children", "child", "father of", "mother of"],
  sibling: ["brother", "sister", "sibling"],
  director: ["directed", "director", "direction"],
  composer: ["composed", "composer", "music by", "score", "music"],
  performer: ["performed", "performer", "recorded", "singer", "band", "sung", "by"],
  producer: ["produced", "producer"],
  founder: ["founded", "founder", "established", "co-founded"],
  author: ["written", "wrote", "author", "novel by", "book by"],
  writer: ["written", "wrote", "writer", "screenplay"],
  screenwriter: ["written", "wrote", "screenplay", "screenwriter"],
  creator: ["created", "creator"],
  publisher: ["published", "publisher"],
  owner: ["owned", "owner"],
};

/** Words a cast is written with: an actor, actress or star is the one a page says "stars", "portrayed" or "played by" of (rule chain.cast-cues). */
export const CAST_CUES: readonly string[] = ["stars", "starring", "starred", "played by", "portrayed", "cast"];

/**
 * A question's verbs as pages say them, besides their own stems (rule chain.verb-cues): a band "founded" is
 * "formed", a missile "made" by a company "developed by" it, a bank "bought" one "acquired".
 */
export const VERB_CUES: Record<string, readonly string[]> = {
  founded: ["formed", "established", "co-founded"],
  formed: ["founded", "established"],
  made: ["developed by", "manufactured", "built by", "produced by"],
  makes: ["developed by", "manufactured", "built by", "produced by"],
  produces: ["developed by", "manufactured", "built by", "produced by"],
  bought: ["purchased", "purchase", "acquired", "acquisition"],
  purchased: ["bought", "acquired", "acquisition"],
  purchaser: ["bought", "purchase", "purchased", "acquired", "acquisition"],
  acquired: ["bought", "purchased", "purchase", "acquisition"],
  flows: ["tributary", "empties into", "drains into", "discharges into", "confluence"],
  flow: ["tributary", "empties into", "drains into", "discharges into", "confluence"],
  birth: ["born"],
  died: ["death"],
  death: ["died"],
};

/** Kinship relations: a page about X rarely says them of X's relation too ("the FATHER of Nim's actress" is another hop). */
export const KINSHIP = new Set(["father", "mother", "parent", "wife", "husband", "spouse", "son", "daughter", "child", "sibling", "brother", "sister"]);

/** Two hops in one word: "paternal grandfather" is the father's father. */
export const COMPOSITE_RELATIONS: Record<string, readonly string[]> = {
  "paternal grandfather": ["father", "father"],
  "paternal grandmother": ["father", "mother"],
  "maternal grandfather": ["mother", "father"],
  "maternal grandmother": ["mother", "mother"],
  "father-in-law": ["spouse", "father"],
  "mother-in-law": ["spouse", "mother"],
  stepmother: ["father", "spouse"],
  stepfather: ["mother", "spouse"],
};

/**
 * The attribute a question asks of the last thing it names, with the words a page says it with and the kind
 * of answer it is. `asked` is matched on the question (lower-case).
 */
export const ATTRIBUTES: readonly { name: string; asked: RegExp; cues: readonly string[]; type: "place" | "time" | null }[] = [
  { name: "birthplace", asked: /\b(?:place of birth|birthplace|where (?:was|were|is|did) .+ (?:born|birth))\b/, cues: ["born", "birth", "native"], type: "place" },
  { name: "birth date", asked: /\b(?:date of birth|birthday|when (?:was|were|is|did) .+ (?:born|birth)|what year was .+ born)\b/, cues: ["born", "birth"], type: "time" },
  { name: "death place", asked: /\b(?:place of death|where did .+ die|where (?:was|were) .+ died)\b/, cues: ["died", "death", "killed"], type: "place" },
  { name: "death date", asked: /\b(?:date of death|when did .+ die|when (?:was|were) .+ died|what year did .+ die)\b/, cues: ["died", "death", "killed"], type: "time" },
  { name: "burial place", asked: /\b(?:place of burial|buried|burial)\b/, cues: ["buried", "burial", "interred", "tomb", "grave"], type: "place" },
  { name: "cause of death", asked: /\b(?:cause of death|why did .+ die|how did .+ die)\b/, cues: ["died of", "died from", "cause", "killed", "death"], type: null },
  { name: "nationality", asked: /\b(?:nationality|what country .+ from|which country .+ from|citizen)\b/, cues: ["nationality", "citizen"], type: null },
  { name: "education", asked: /\b(?:educated|study|studied|school|university|college|alma mater|graduate)\b/, cues: ["educated", "studied", "attended", "graduated", "school", "university", "college"], type: "place" },
  { name: "employer", asked: /\b(?:work at|work for|works at|worked at|employer|employed)\b/, cues: ["worked", "works", "employed", "professor", "joined", "work", "edited", "editor", "taught", "served"], type: "place" },
  { name: "award", asked: /\b(?:award|prize|honou?r)\b/, cues: ["award", "prize", "won", "received", "honour", "honor"], type: null },
];

/** Nouns a question names without naming a relation: "the NAME of …", "the TYPE of …". */
export const NOT_RELATIONS = new Set([
  "name", "type", "kind", "sort", "number", "part", "one", "year", "date", "place", "title", "role", "time", "day", "age",
  "cause", "country", "city", "nationality", "birth", "death", "burial", "rest", "first", "last", "most", "end", "start",
]);
