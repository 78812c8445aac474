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
