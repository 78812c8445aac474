// Multi-hop shapes over pages written here (issue 58): bridge, comparison, yes/no, two-part, and their bad
// inputs: no entity named, a three-hop chain, three options, namesakes, a missing hop, another script.
import type { AnswerTable } from "./table";

const FILMS: Record<string, string> = {
  "Sacred Planet": "# Sacred Planet\n\nSacred Planet is a 2004 American documentary film directed by Jon Long. It was released by Walt Disney Pictures.",
  "Oz the Great and Powerful": "# Oz the Great and Powerful\n\nOz the Great and Powerful is a 2013 American fantasy adventure film directed by Sam Raimi.",
  "Harbour Lights": "# Harbour Lights\n\nHarbour Lights is a 1999 drama film directed by Mira Kowalski, shot on the coast of Maine.",
  Tideline: "# Tideline\n\nTideline is a 2007 thriller film directed by Sam Raimi.",
  "Jon Long": "# Jon Long\n\nJon Long (born 3 May 1961) is a Canadian film director and cinematographer. He was born in Vancouver, British Columbia.",
  "Jon Long (footballer)": "# Jon Long (footballer)\n\nJon Long (born 1990) is an English footballer who plays as a defender for Leeds United.",
  "Sam Raimi": "# Sam Raimi\n\nSamuel Marshall Raimi (born October 23, 1959) is an American filmmaker. He is the son of Leonard Raimi, a furniture dealer.",
  "Leonard Raimi": "# Leonard Raimi\n\nLeonard Raimi (1930 – 2009) was an American businessman. He was born in Detroit, Michigan.",
  "Ada Brook": "# Ada Brook\n\nAda Brook (born 12 June 1970) is an American film editor.",
  "Night Harbour": "# Night Harbour\n\nNight Harbour is a 1991 British–American-Japanese drama film directed by the Hungarian director Imre Palkó.",
  "Lantern Street": "# Lantern Street\n\nLantern Street is a 2001 crime film directed by Sam Raimi. It was shot in Chicago.",
  "Velvet (singer)": "# Velvet (singer)\n\nJenny Pettersson (born 5 November 1975, Helsingborg, Sweden), known as Velvet, is a Swedish dance- pop singer.",
  "Mara Osk": "# Mara Osk\n\nMara Osk (born 1980) is an Armenian- American film editor.",
  "Cold River": "# Cold River\n\nThe Cold River is a tributary of the Rogue River in the U.S. state of Oregon.",
  "Tom Reyes": "# Tom Reyes\n\nTom Reyes (born 1971) is a former relief pitcher. He played for three teams. He retired in 2004. He was born in Ponce, Puerto Rico, and toured Japan twice.",
  "Pine Creek": "# Pine Creek\n\nPine Creek is a stream in Oregon. It flows into the Rogue River.",
  "Ilha River": "# Ilha River\n\nThe Ilha River is a river of Paraná state in southern Brazil.",
  "Place of birth": "# Place of birth\n\nThe place of birth is the town where a person was born; a passport records the place of birth of its holder.",
};

export const SHAPES: AnswerTable = {
  brain: "Films",
  pages: FILMS,
  cases: [
    {
      name: "comparison: the chosen one first, then the two facts it rests on, both pages cited",
      question: "Which film came out first, Sacred Planet or Oz the Great and Powerful?",
      startsWith: "Sacred Planet (2004) came before Oz the Great and Powerful (2013).",
      cites: ["sacred-planet", "oz-the-great-and-powerful"],
    },
    {
      name: "comparison: the later one when the question asks for it",
      question: "Which film was released later, Sacred Planet or Oz the Great and Powerful?",
      startsWith: "Oz the Great and Powerful (2013)",
    },
    {
      name: "comparison of three: the first of all three",
      question: "Which film came out first, Oz the Great and Powerful, Tideline, or Harbour Lights?",
      startsWith: "Harbour Lights (1999)",
      cites: ["harbour-lights", "tideline", "oz-the-great-and-powerful"],
    },
    {
      name: "comparison through a relation: each film's director, dates compared as dates",
      question: "Which film has the director born earlier, Sacred Planet or Oz the Great and Powerful?",
      startsWith: "Oz the Great and Powerful: its director Sam Raimi (born October 23, 1959) was born before Sacred Planet's director Jon Long (born 3 May 1961).",
      cites: ["sacred-planet", "oz-the-great-and-powerful", "jon-long", "sam-raimi"],
      excludes: ["footballer"],
    },
    {
      name: "bridge: a page titled with the question's common words (\"place of birth\") is not what it names",
      question: "What is the place of birth of the director of film Sacred Planet?",
      startsWith: "He was born in Vancouver, British Columbia.",
      cites: ["jon-long", "sacred-planet"],
      excludes: ["passport"],
    },
    {
      name: "bridge: the second hop's sentence, both pages cited; the namesake footballer is not the director",
      question: "Where was the director of film Sacred Planet born?",
      startsWith: "He was born in Vancouver, British Columbia.",
      cites: ["jon-long", "sacred-planet"],
      excludes: ["Leeds"],
    },
    {
      name: "bridge of three hops: the director's father's birthplace",
      question: "Where was the father of the director of film Tideline born?",
      startsWith: "He was born in Detroit, Michigan.",
      cites: ["leonard-raimi", "sam-raimi", "tideline"],
    },
    {
      name: "incomplete chain: the director has no page, so the answer is thin, not the film's sentence",
      question: "Where was the director of film Harbour Lights born?",
      thin: true,
    },
    {
      name: "yes/no: No, with both facts",
      question: "Were Sam Raimi and Jon Long of the same nationality?",
      startsWith: "No: Sam Raimi is from United States, Jon Long is from Canada.",
      cites: ["sam-raimi", "jon-long"],
    },
    {
      name: "yes/no: Yes, with both facts",
      question: "Are Sam Raimi and Ada Brook both from the same country?",
      startsWith: "Yes: Sam Raimi and Ada Brook are both from United States.",
      cites: ["sam-raimi", "ada-brook"],
    },
    {
      name: "yes/no through a relation: the films' directors",
      question: "Are the directors of films Tideline and Oz the Great and Powerful from the same country?",
      startsWith: "Yes:",
      contains: ["Sam Raimi"],
    },
    {
      name: "yes/no with a fact missing (Harbour Lights names no country): thin",
      question: "Are Harbour Lights and Sacred Planet both from the same country?",
      thin: true,
    },
    {
      name: "yes/no comparison: Is A older than B?",
      question: "Is Sam Raimi older than Jon Long?",
      startsWith: "Yes: Sam Raimi (born October 23, 1959) was born before Jon Long (born 3 May 1961).",
    },
    {
      name: "yes/no: a co-production is of each of its countries, and shares one with an American film",
      question: "Are Night Harbour and Sacred Planet from the same country?",
      startsWith: "Yes: Night Harbour and Sacred Planet are both from United States.",
      cites: ["night-harbour", "sacred-planet"],
      excludes: ["Hungary"],
    },
    {
      name: "yes/no: a relation word in an option's title ('Velvet (singer)') is no relation to follow; a name in 'U.S.' and 'Brazil'",
      question: "Did Ada Brook and Velvet (Singer) have the same nationality?",
      startsWith: "No: Ada Brook is from United States, Velvet (Singer) is from Sweden.",
    },
    {
      name: "yes/no: 'Armenian- American' (a dash and a space) is American too",
      question: "Are Mara Osk and Ada Brook of the same nationality?",
      startsWith: "Yes:",
      contains: ["United States"],
    },
    {
      name: "yes/no: 'the U.S. state of Oregon' is the United States, 'southern Brazil' Brazil",
      question: "Are both Cold River and Ilha River located in the same country?",
      startsWith: "No: Cold River is from United States, Ilha River is from Brazil.",
      cites: ["cold-river", "ilha-river"],
    },
    {
      name: "yes/no: a page naming only a state ('a stream in Oregon') is of that state's country",
      question: "Are Pine Creek and Cold River both located in the same country?",
      startsWith: "Yes: Pine Creek and Cold River are both from United States.",
      cites: ["pine-creek", "cold-river"],
    },
    {
      name: "yes/no: an opening that says no country, a later sentence saying where the subject was born",
      question: "Are Tom Reyes and Jon Long of the same nationality?",
      startsWith: "No: Tom Reyes is from Puerto Rico, Jon Long is from Canada.",
      excludes: [/^No: Tom Reyes is from [^,]*Japan/],
    },
    {
      name: "yes/no, the country asked: both American",
      question: "Are Sam Raimi and Ada Brook both American?",
      startsWith: "Yes: Sam Raimi and Ada Brook are both from United States.",
      cites: ["sam-raimi", "ada-brook"],
    },
    {
      name: "yes/no, the country asked: one is not",
      question: "Are Sam Raimi and Jon Long both American?",
      startsWith: "No: Sam Raimi is from United States, Jon Long is from Canada.",
    },
    {
      name: "yes/no, the country asked, a fact missing (Harbour Lights names no country): thin",
      question: "Are both Harbour Lights and Sacred Planet American?",
      thin: true,
    },
    {
      name: "yes/no, the same relation: both films directed by Sam Raimi",
      question: "Do both films Tideline and Lantern Street have the same director?",
      startsWith: "Yes: Tideline and Lantern Street both have the director Sam Raimi.",
      cites: ["tideline", "lantern-street"],
    },
    {
      name: "yes/no, the same relation said with a verb: not the same director",
      question: "Were Sacred Planet and Tideline directed by the same person?",
      startsWith: "No: Sacred Planet's director is Jon Long, Tideline's director is Sam Raimi.",
      excludes: ["footballer"],
    },
    {
      name: "yes/no, the same relation, a fact missing (Ada Brook's page names no director): thin",
      question: "Do Ada Brook and Tideline have the same director?",
      thin: true,
    },
    {
      name: "yes/no, an order said with 'before': dates compared as values",
      question: "Was Jon Long born before Sam Raimi?",
      startsWith: "No: Sam Raimi (born October 23, 1959) was born before Jon Long (born 3 May 1961).",
    },
    {
      name: "yes/no, an order of the films' directors: each followed before comparing",
      question: "Was the director of film Oz the Great and Powerful born earlier than the director of film Sacred Planet?",
      startsWith: "Yes: Oz the Great and Powerful's director Sam Raimi (born October 23, 1959) was born before Sacred Planet's director Jon Long (born 3 May 1961).",
      cites: ["sam-raimi", "jon-long"],
      excludes: ["footballer"],
    },
    {
      name: "yes/no, an order with a date missing (Harbour Lights' director has no page): thin",
      question: "Was the director of film Harbour Lights born before the director of film Sacred Planet?",
      thin: true,
    },
    {
      name: "a choice asked in a polar question's words is a comparison: the chosen one first",
      question: "Was Jon Long or Sam Raimi born first?",
      startsWith: "Sam Raimi (born October 23, 1959) was born before Jon Long (born 3 May 1961).",
      cites: ["sam-raimi", "jon-long"],
      excludes: [/^Yes|^No/],
    },
    {
      name: "a polar choice of films: the earlier release first",
      question: "Did the film Tideline or Sacred Planet come out first?",
      startsWith: "Sacred Planet (2004) came before Tideline (2007).",
    },
    {
      name: "a question naming no entity is answered plainly: no chain is made up",
      question: "Where was the director born?",
      excludes: ["The pages do not say this of", /^Yes|^No/],
    },
    {
      name: "another script: answered plainly, no shape read into it",
      question: "Где родился режиссёр фильма Sacred Planet?",
      excludes: [/^Yes|^No/, "came before"],
    },
  ],
};

export const ONE_PAGE: AnswerTable = {
  brain: "One film",
  pages: { "Sacred Planet": FILMS["Sacred Planet"]! },
  cases: [
    { name: "a brain of one page: the chain's second page is missing, thin", question: "Where was the director of film Sacred Planet born?", thin: true },
    { name: "a brain of one page: a comparison with one option's page missing does not choose", question: "Which film came out first, Sacred Planet or Oz the Great and Powerful?", excludes: ["came before", "came after"] },
  ],
};

export const TWO_PART: AnswerTable = {
  brain: "Services",
  pages: {
    "Billing service": "# Billing service\n\nThe billing service is written in Go and deployed on Fly.io.",
    Ownership: "# Ownership\n\n| Service | Owner |\n|---|---|\n| Billing service | Priya Raman |\n| Search | Omar Haddad |",
  },
  cases: [
    {
      name: "two parts on two pages: both answered, both cited",
      question: "Who owns the billing service and what language is it written in?",
      contains: ["Priya Raman", "written in Go"],
      cites: ["billing-service", "ownership"],
    },
    {
      name: "two parts, one the brain cannot answer: it says which",
      question: "Who owns the billing service and what is the capital of Peru?",
      contains: ["Priya Raman", "The pages do not say: what is the capital of Peru?"],
    },
  ],
};
