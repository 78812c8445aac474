// English words by which a question compares two or more things (frame.ts, shapes/comparison.ts): what is
// compared (a birth, a death, a release, a life's length, a quantity) and which way (the earlier or the later).

export type ComparedValue = "birth" | "death" | "lifespan" | "event" | "quantity";

/** Which value a comparison compares and whether the least (`min`) or the most wins, read in order. */
export const COMPARISONS: readonly { value: ComparedValue; pick: "min" | "max"; said: RegExp; phrase: [string, string] }[] = [
  { value: "lifespan", pick: "max", said: /\blived longer\b|\blonger life\b|\blonger-lived\b/, phrase: ["lived longer than", "lived longer"] },
  { value: "lifespan", pick: "min", said: /\blived shorter\b|\bshorter life\b|\bdied younger\b/, phrase: ["lived a shorter life than", "lived shorter"] },
  { value: "death", pick: "min", said: /\b(?:died|death)\b.*\b(?:first|earlier|sooner|before)\b|\b(?:first|earlier) (?:to die|death)\b/, phrase: ["died before", "died first"] },
  { value: "death", pick: "max", said: /\b(?:died|death)\b.*\b(?:later|last|after)\b/, phrase: ["died after", "died later"] },
  { value: "birth", pick: "min", said: /\bborn\b.*\b(?:first|earlier|before)\b|\bolder\b|\boldest\b|\belder\b/, phrase: ["was born before", "was born first"] },
  { value: "birth", pick: "max", said: /\bborn\b.*\b(?:later|last|after)\b|\byounger\b|\byoungest\b/, phrase: ["was born after", "was born later"] },
  { value: "event", pick: "min", said: /\b(?:first|earlier|sooner|before|older)\b/, phrase: ["came before", "came first"] },
  { value: "event", pick: "max", said: /\b(?:later|last|after|more recent|most recent|newer|recently)\b/, phrase: ["came after", "came later"] },
  { value: "quantity", pick: "max", said: /\b(?:more|larger|bigger|higher|taller|longer|greater|most|largest|biggest|highest|tallest|longest|greatest)\b/, phrase: ["is more than", "is greater"] },
  { value: "quantity", pick: "min", said: /\b(?:fewer|less|smaller|lower|shorter|least|smallest|lowest|shortest)\b/, phrase: ["is less than", "is smaller"] },
];

/** The verbs of an event a thing "came out" with, for the phrase said of it ("came out before"). */
export const RELEASE_WORDS = /\b(?:released|release|came out|come out|premiered|published|aired|founded|established|formed|opened|built)\b/;

/** Month names, long and short, in order. */
export const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"] as const;
