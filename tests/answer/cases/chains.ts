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

// Chains said loosely, as public multi-hop pages say them (rules chain.* in src/modules/answer/rules.ts).
const LOOSE: Record<string, string> = {
  "The Glass Orchard": "# The Glass Orchard\n\nThe Glass Orchard is a 1974 novel by Maren Holt.",
  "Maren Holt": "# Maren Holt\n\nMaren Holt (1931–2002) was a Norwegian novelist. Holt was born in Tromsø.",
  "Orchard Notes": "# Orchard Notes\n\nOrchard Notes is a column on glass orchards whose writer was born in Leeds, a city in England.",
  "Ada Vane": "# Ada Vane\n\nAda Vane (1801–1860) was a half-sister of King Osric II of Merrow.",
  "Merrow Abbey": "# Merrow Abbey\n\nMerrow Abbey is a stone church on the coast. In 1822, Osric II was crowned in Merrow Abbey.",
  "Night Ferry": "# Night Ferry\n\nNight Ferry is a 1990 drama film starring Lena Brook.",
  "Lena Brook": "# Lena Brook\n\nLena Brook is the daughter of the painter Jon Brook. She was born in Ostend in 1961.",
  "Harbour Cup": "# Harbour Cup\n\nTennis player Ivo Sand is the only person to have won the Harbour Cup three times.",
  "Coastal Doubles": "# Coastal Doubles\n\nIvo Sand and Pell Sand were the defending champions. The brothers withdrew before the final.",
};

export const LOOSE_CHAINS: AnswerTable = {
  brain: "Loose chains",
  pages: LOOSE,
  cases: [
    {
      name: "a title the question writes is said whole: a column on 'glass orchards' is not The Glass Orchard (chain.whole-names, chain.named-start)",
      question: "Which city was the writer of The Glass Orchard born in?",
      contains: ["born in Tromsø", "novel by Maren Holt"],
      cites: ["maren-holt", "the-glass-orchard"],
      excludes: ["Leeds"],
    },
    {
      name: "a bridge is met in its forms: 'King Osric II of Merrow' crowned as 'Osric II' (chain.name-forms)",
      question: "When was the sibling of Ada Vane crowned?",
      startsWith: "In 1822, Osric II was crowned in Merrow Abbey.",
      contains: ["half-sister of King Osric II of Merrow"],
      cites: ["merrow-abbey", "ada-vane"],
    },
    {
      name: "the wh-word's noun is said by a name of its kind: 'what city' by 'Ostend' (chain.typed-head)",
      question: "What city is the star of Night Ferry from?",
      contains: ["born in Ostend", "starring Lena Brook"],
      cites: ["lena-brook", "night-ferry"],
    },
    {
      name: "a kinship before 'of' is the next hop's: the father of the film's star, not the film's sentence (chain.clause-bounds)",
      question: "Who is the father of Night Ferry's star?",
      contains: ["daughter of the painter Jon Brook", "starring Lena Brook"],
      cites: ["lena-brook", "night-ferry"],
      excludes: ["Ostend"],
    },
    {
      name: "a hop may name its bridge in the sentence before: both quoted (chain.adjacent-mention)",
      question: "Who is the brother of the player who has won the Harbour Cup three times?",
      contains: ["Ivo Sand and Pell Sand were the defending champions. The brothers withdrew", "won the Harbour Cup three times"],
      cites: ["coastal-doubles", "harbour-cup"],
    },
  ],
};

// Chains as MuSiQue composes them (issue 58): a relation asked of a possessive, an actress named by "stars",
// a title joined by "&", an answer said in the sentence after the hop's.
const COMPOSED: Record<string, string> = {
  "List of monarchs of Veldmark by reign": "# List of monarchs of Veldmark by reign\n\nQueen Maud III became the longest-reigning monarch of Veldmark on 9 September 2015, when she passed her grandmother.",
  "Wedding gown of Princess Maud": "# Wedding gown of Princess Maud\n\nThe wedding gown of Princess Maud was worn by the future Queen Maud III at her wedding to Anton Berg, Duke of Lys, on 20 November 1947. It was designed by Ilse Kern.",
  "Tarn Creek": "# Tarn Creek\n\nTarn Creek, an urban watercourse that is part of the Osk River catchment, is located in Westshire.",
  "Osk River": "# Osk River\n\nThe Osk River is a drowned valley estuary located in Westshire. The Osk River is the main tributary of Gull Harbour, a branch of Port Mere.",
  "Harrow Mills": "# Harrow Mills\n\nHarrow Mills was a textile company in Leeds. In 1998 the Kestrel Group bought Harrow Mills for forty million pounds.",
  "Kestrel Group": "# Kestrel Group\n\nThe Kestrel Group is a British holding company based in York.",
  "Dana Pike": "# Dana Pike\n\nDana Pike (born 1961) is an English accountant and the chairman and CEO of the Kestrel Group.",
  "Treatise on Tides": "# Treatise on Tides\n\nThe Treatise on Tides is a 1702 essay by the Welsh astronomer Owain Hale.",
  "Owain Hale": "# Owain Hale\n\nOwain Hale was a Welsh astronomer who studied the moon in 18th-century Cardiff.",
  "Fenmoor Dairy": "# Fenmoor Dairy\n\nFenmoor Dairy is a cheese maker in Devon. In 2001 the Osprey Trust bought Fenmoor Dairy.",
  "Calder Town": "# Calder Town\n\nCalder Town is a market town in Fife. The estimated town population in 2010 was 8,200. The population density was 950 people per square kilometre.",
  "Mira Voss": "# Mira Voss\n\nMira Voss (born 4 May 1970 in Calder Town) is a Scottish painter.",
  "Copper Wren": "# Copper Wren\n\nCopper Wren is a folk band from Dunmore formed in 2004.",
  "Dunmore": "# Dunmore\n\nDunmore is a town in Halvik County, on the river Ness.",
  "Rook & Finch": "# Rook & Finch\n\nRook & Finch is a 1994 comedy film directed by Ames Lorne. It stars Tessa Quill as Rook and Bea Marr as Finch.",
  "Tessa Quill": "# Tessa Quill\n\nTessa Quill is a Canadian actress, born in Halifax in 1962.",
  "Tern Rocket": "# Tern Rocket\n\nThe Tern Rocket was an early British sounding rocket, developed by the Harlow Aero Company for the Royal Navy.",
  "Harlow Marine": "# Harlow Marine\n\nThe Harlow Marine Corporation was a British firm founded in 1961 through the merger of Harlow Aero Company and Brent Shipyards.",
  "Wen Ashby": "# Wen Ashby\n\nWen Ashby (born 1950) is a Welsh actress. She began as a child performer in the 1961 film Moss Lane, playing the spoiled Tilly Brand.",
  "Tilly Brand (band)": "# Tilly Brand (band)\n\n\"Paper Hats\" is a single by the band Tilly Brand.",
  "Ivo Finch": "# Ivo Finch\n\nIvo Finch is a fictional character from the radio serial Harbour Lights, played by Ned Ross. Ross was born in Cork.",
};

export const COMPOSED_CHAINS: AnswerTable = {
  brain: "Composed chains",
  pages: COMPOSED,
  cases: [
    {
      name: "a noun before 'of' the first hop does not say is the next hop's: the CEO of the purchaser (chain.outer-of)",
      question: "Who is the CEO of Harrow Mills's purchaser?",
      contains: ["CEO of the Kestrel Group", "Kestrel Group bought Harrow Mills"],
      cites: ["dana-pike", "harrow-mills"],
    },
    {
      name: "a relation the first hop says by 'by' stays its own: the author of the essay, then the century (chain.outer-of)",
      question: "What century did the author of Treatise on Tides live in?",
      contains: ["18th-century Cardiff", "essay by the Welsh astronomer Owain Hale"],
      cites: ["owain-hale", "treatise-on-tides"],
    },
    {
      name: "the purchaser has no page: no other company's chief is named (chain.outer-of)",
      question: "Who is the CEO of Fenmoor Dairy's purchaser?",
      excludes: ["Dana Pike", "Kestrel"],
    },
    {
      name: "the sentence after the last hop's says what it left unsaid: the density after the population (chain.next-sentence, chain.verb-cues)",
      question: "What was the population density of Mira Voss's town of birth in 2010?",
      contains: ["950 people per square kilometre", "born 4 May 1970 in Calder Town"],
      cites: ["calder-town", "mira-voss"],
    },
    {
      name: "a spouse is said by a wedding: the monarch's wedding names her husband (chain.cue-search)",
      question: "Who is the spouse of the longest reigning monarch of Veldmark?",
      contains: ["wedding to Anton Berg"],
      cites: ["wedding-gown-of-princess-maud"],
      excludes: ["Ilse Kern"],
    },
    {
      name: "a river 'flows into' what it is a tributary of (chain.verb-cues)",
      question: "What body of water does the river that Tarn Creek flows into flow into?",
      contains: ["main tributary of Gull Harbour"],
      cites: ["osk-river", "tarn-creek"],
    },
    {
      name: "a band 'founded' is said 'formed' (chain.verb-cues)",
      question: "In which county is the town where Copper Wren was founded?",
      contains: ["Halvik County", "formed in 2004"],
      cites: ["dunmore", "copper-wren"],
    },
    {
      name: "an actress is the one a film 'stars'; 'Rook & Finch' is no person 'Finch' (chain.cast-cues, chain.ampersand-titles)",
      question: "Where was the actress who played Rook in Rook & Finch born?",
      contains: ["born in Halifax", "stars Tessa Quill as Rook"],
      cites: ["tessa-quill", "rook-finch"],
      excludes: ["Ned Ross", "Cork"],
    },
    {
      name: "the wh-word's noun written twice: the first hop's company is the inner one, the answer the company after it (chain.repeated-head)",
      question: "Which company followed the company that made the Tern Rocket?",
      contains: ["Harlow Marine Corporation", "developed by the Harlow Aero Company"],
      cites: ["harlow-marine", "tern-rocket"],
    },
    {
      name: "a hop saying its page's subject as 'she' is quoted after the page's opening, which names her (chain.hop-openings)",
      question: "Who played the character in Moss Lane that the performer of Paper Hats was named after?",
      contains: ["Wen Ashby (born 1950)", "playing the spoiled Tilly Brand"],
      cites: ["wen-ashby"],
    },
  ],
};

// A first hop whose walk leads nowhere gives way to the next (rule chain.backtrack): the sequel's page says
// most of the question, but its star plays in no other film the brain knows.
const BACKTRACKED: Record<string, string> = {
  "Star Lantern": "# Star Lantern\n\nStar Lantern is a 1970 musical film directed by Ira Bell. The film stars Odile Marsh in her debut as Captain Wren, a ferry pilot.",
  "Star Lantern Returns": "# Star Lantern Returns\n\nStar Lantern Returns is a 2019 sequel to the 1970 musical film Star Lantern, and the film stars Pia Rowe as Captain Wren.",
  "Harbor Kings": "# Harbor Kings\n\nHarbor Kings is a 2001 comedy film set in Duluth. Odile Marsh plays the harbour master Greta Lund.",
  "Night Quay": "# Night Quay\n\nNight Quay is a 1988 crime film directed by Ira Bell, shot in Duluth.",
};

export const BACKTRACKED_CHAINS: AnswerTable = {
  brain: "Backtracked chains",
  pages: BACKTRACKED,
  cases: [
    {
      name: "the sequel's star leads nowhere; the original's star plays in the film asked (chain.backtrack)",
      question: "Who does the actress that played Captain Wren in the 1970 film Star Lantern play in Harbor Kings?",
      contains: ["Greta Lund", "stars Odile Marsh"],
      cites: ["harbor-kings", "star-lantern"],
      excludes: ["Pia Rowe"],
    },
    {
      name: "a chain from another film than the one asked is no answer: thin, not Night Quay's director (chain.backtrack)",
      question: "Where was the director of the film Salt Meridian born?",
      thin: true,
    },
  ],
};
