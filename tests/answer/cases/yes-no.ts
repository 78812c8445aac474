// Yes/no and comparison readings over pages written here (issue 58): dates as a page writes them (a year run
// into the next day, a bracket inside a life's span, "a.k.a.", "Ph.D."), a country said only by a language,
// the ways a question writes its options ("out of", "between", "as", "the movies A and B, originate"), and
// the bad inputs: three options, a namesake with a page of its own, an option with no page, another script.
import type { AnswerTable } from "./table";

const PEOPLE: Record<string, string> = {
  "Mira Halden":
    "# Mira Halden\n\nMira Halden (4 June 1931 – 2 March 1999) was a Norwegian film director. She earned a Ph.D. in 1960 and taught in Oslo. Her teacher died in 1950.",
  "Tomas Vik": "# Tomas Vik\n\nTomas Vik (12 May 1920, Bergen, Norway (now Vestland) – 8 August 1994, Oslo) was a Norwegian cinematographer.",
  "Ola Brekke": "# Ola Brekke\n\nOla Brekke (born Olav Brekkestad; 17 September 190030 April 1985) was a Norwegian composer.",
  "Kim Dal-sun": "# Kim Dal-sun\n\nKim Dal-sun (a.k.a. Kim Sun; June 19, 1946 – April 19, 2000) was a South Korean boxer.",
  "Kaveri Nadi": "# Kaveri Nadi\n\nKaveri Nadi is a 1975 Kannada film directed by R. Nagendra.",
  "Sunset Road": "# Sunset Road\n\nSunset Road is a 1980 Indian drama film.",
  "Lake Orrin": "# Lake Orrin\n\nLake Orrin is a lake in Ontario.",
  "Pine Hollow": "# Pine Hollow\n\nPine Hollow is a village in Quebec, Canada.",
  "Lena Strand": "# Lena Strand\n\nLena Strand (born 1950) is a Swedish film director.",
  "Lena Strand (footballer)": "# Lena Strand (footballer)\n\nLena Strand (born 1992) is a Danish footballer who plays as a midfielder.",
  "Britt Lund": "# Britt Lund\n\nBritt Lund (born 1948) is a Swedish actress.",
  "Grey Harbour": "# Grey Harbour\n\nGrey Harbour is a 1961 drama film shot on an island.",
};

export const YES_NO: AnswerTable = {
  brain: "Yes and no",
  pages: PEOPLE,
  cases: [
    {
      name: "dates: the opening's span says the death, not a later 'died' of another or a 'Ph.D. in 1960'; a bracket inside a span read past",
      question: "Who died first, Mira Halden or Tomas Vik?",
      startsWith: "Tomas Vik (died 8 August 1994) died before Mira Halden (died 2 March 1999).",
      cites: ["tomas-vik", "mira-halden"],
    },
    {
      name: "dates: a year run into the next day ('190030 April') is a birth and a death",
      question: "Who was born later, Ola Brekke or Tomas Vik?",
      startsWith: "Tomas Vik (born 12 May 1920) was born after Ola Brekke (born 17 September 1900).",
      excludes: ["(born April 1985)", "(born 30 April 1985)"],
    },
    {
      name: "dates: an opening cut after 'a.k.a.' is one sentence again",
      question: "Who died first, Kim Dal-sun or Mira Halden?",
      startsWith: "Mira Halden (died 2 March 1999) died before Kim Dal-sun (died April 19, 2000).",
    },
    {
      name: "options after 'out of'",
      question: "Who was born first out of Ola Brekke and Tomas Vik?",
      startsWith: "Ola Brekke (born 17 September 1900) was born before Tomas Vik (born 12 May 1920).",
    },
    {
      name: "options after 'between'",
      question: "Which film came out first between Kaveri Nadi and Sunset Road?",
      startsWith: "Kaveri Nadi (1975) came before Sunset Road (1980).",
    },
    {
      name: "a country said only by its language ('a 1975 Kannada film'); the question's words around the options left out",
      question: "Do the movies Kaveri Nadi and Sunset Road, originate from the same country?",
      startsWith: "Yes: Kaveri Nadi and Sunset Road are both from India.",
      cites: ["kaveri-nadi", "sunset-road"],
    },
    {
      name: "'located in the same country as': a province's country",
      question: "Is Lake Orrin located in the same country as Pine Hollow?",
      startsWith: "Yes: Lake Orrin and Pine Hollow are both from Canada.",
    },
    {
      name: "'the same nationality' without 'of'",
      question: "Are Mira Halden and Kim Dal-sun the same nationality?",
      startsWith: "No: Mira Halden is from Norway, Kim Dal-sun is from South Korea.",
    },
    {
      name: "three options, all of one country",
      question: "Are Mira Halden, Tomas Vik and Ola Brekke from the same country?",
      startsWith: "Yes: Mira Halden, Tomas Vik and Ola Brekke are all from Norway.",
      cites: ["mira-halden", "tomas-vik", "ola-brekke"],
    },
    {
      name: "three options, one of another country",
      question: "Are Mira Halden, Tomas Vik and Kim Dal-sun from the same country?",
      startsWith: "No:",
      contains: ["Kim Dal-sun is from South Korea"],
    },
    {
      name: "three options, one with no country said: thin, not a guess",
      question: "Are Mira Halden, Tomas Vik and Grey Harbour from the same country?",
      thin: true,
    },
    {
      name: "an option with no page: thin, not a guess",
      question: "Are Mira Halden and Astrid Nyberg of the same nationality?",
      thin: true,
    },
    {
      name: "a namesake with a page of its own: the page titled by the name alone",
      question: "Are Lena Strand and Britt Lund of the same nationality?",
      startsWith: "Yes: Lena Strand and Britt Lund are both from Sweden.",
      excludes: ["Danish", "footballer"],
    },
    {
      name: "a yes/no in another script: no yes or no read into it",
      question: "Мира Халден и Томас Вик из одной страны?",
      excludes: [/^Yes|^No/],
    },
  ],
};

export const ONE_PERSON: AnswerTable = {
  brain: "One person",
  pages: { "Mira Halden": PEOPLE["Mira Halden"]! },
  cases: [
    { name: "a brain of one page: a yes/no whose other option has no page is thin", question: "Are Mira Halden and Tomas Vik from the same country?", thin: true },
    { name: "a brain of one page: an order with the other's date missing is thin", question: "Was Mira Halden born before Tomas Vik?", thin: true },
  ],
};
