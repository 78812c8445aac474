// Chains no relation list names (issue 58, MuSiQue-style): "Who founded the company that built X?" is followed
// hop by hop through pages written here: the answer quotes the last hop first and cites every hop's page; a
// chain whose next page is missing is thin; a question one sentence answers is no chain.
import type { AnswerTable } from "./table";

const WORKS: Record<string, string> = {
  "Orrin Bridge": "# Orrin Bridge\n\nThe Orrin Bridge is a steel arch bridge over the river Tay. It was built in 1931 by the Calder Works company.",
  "Calder Works": "# Calder Works\n\nCalder Works is an engineering firm in Dundee. It was founded by Agnes Calder in 1888.",
  "Agnes Calder": "# Agnes Calder\n\nAgnes Calder (1852–1930) was a Scottish engineer. She was born in Perth, Scotland.",
  "Skerry Lighthouse": "# Skerry Lighthouse\n\nThe Skerry Lighthouse stands on a reef off Orkney. It was built in 1902 by the Fenwick Yards company.",
  "Tay Ferry": "# Tay Ferry\n\nThe Tay Ferry company built the first pier at Newport in 1840. Its boats were founded on a Norwegian design.",
};

export const CHAINS: AnswerTable = {
  brain: "Works",
  pages: WORKS,
  cases: [
    {
      name: "chain of two: the founder said on the builder's page, both pages cited, the last hop first",
      question: "Who founded the company that built the Orrin Bridge?",
      startsWith: "Calder Works is an engineering firm in Dundee. It was founded by Agnes Calder in 1888.",
      contains: ["built in 1931 by the Calder Works company"],
      cites: ["calder-works", "orrin-bridge"],
      excludes: ["Tay Ferry", "Newport", "Fenwick"],
    },
    {
      name: "chain of three: the founder's birthplace, each hop's page cited",
      question: "In which city was the person who founded the company that built the Orrin Bridge born?",
      contains: ["born in Perth", "founded by Agnes Calder", "Calder Works company"],
      cites: ["agnes-calder", "calder-works", "orrin-bridge"],
      excludes: ["Tay Ferry", "Fenwick"],
    },
    {
      name: "unfinished chain: the builder has no page, so the answer is thin, not the lighthouse's sentence",
      question: "Who founded the company that built the Skerry Lighthouse?",
      thin: true,
    },
    {
      name: "no chain: one sentence answers, no hop after it",
      question: "Which company built the Orrin Bridge?",
      contains: ["Calder Works"],
      excludes: ["Agnes", "Tay Ferry"],
    },
  ],
};
