// A local history society's pages: a lighthouse, its museum, its engineer and a wreck, each on its own page
// and naming the others. The pages are written by the test and answers are checked for
// what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const LOCAL_HISTORY_TABLE: AnswerTable = {
  brain: "Kellan",
  pages: {
  "The Harbour Light": `# The Harbour Light

The Harbour Light at Kellan Point was built in 1852 by the engineer Thomas Wray for the Port Commission. The tower is 31 metres tall and its light could be seen 18 nautical miles out to sea.

The first keeper was Samuel Ode, who kept the light with his wife Martha until 1879. In the great storm of February 1861 the brig Oriel struck the Grey Rocks below the point. The keepers rowed out and rescued eleven of the crew.`,
  "Kellan Point Museum": `# Kellan Point Museum

The museum in the old keepers' cottages is open from April to October, Tuesday to Sunday, 10:00 to 16:00. Admission is £6 for adults and free for children under 12.

Its collection includes the original Fresnel lens, Martha Ode's logbooks and a model of the Oriel.`,
  "Thomas Wray": `# Thomas Wray (1810–1877)

Thomas Wray was a Scottish civil engineer who designed harbours and lighthouses along the west coast. Born in Dundee, he trained under Robert Stevenson before setting up on his own in 1840.`,
  "The wreck of the Oriel": `# The wreck of the Oriel

The Oriel was a two-masted brig carrying coal from Cardiff to Belfast. On the night of 11 February 1861 she lost her mainmast in a gale and drifted onto the Grey Rocks.

Of her crew of fourteen, three drowned, including the captain, John Havers. Samuel and Martha Ode took the keepers' boat out at dawn; the survivors were landed at Kellan harbour.`,
},
  cases: [
    // The page about the light never says "lighthouse"; the engineer's page does, with no height: it was the answer.
    { name: "'how tall' is the sentence giving a height, not another page's naming the question's words without one", question: "How tall is the lighthouse?", contains: ["The tower is 31 metres tall"], excludes: ["designed harbours and lighthouses"] },
    // The issue's own example, now in a brain where another page names the Oriel's crew too: it was "Of her crew
    // of fourteen, three drowned", and the keepers' rescue was not quoted.
    { name: "a sentence is read with the one before it: 'the crew' after the brig Oriel struck the rocks is the Oriel's", question: "Who rescued the crew of the Oriel and how many were saved?", contains: ["The keepers rowed out and rescued eleven of the crew."], thin: false },
    // Was the engineer's "designed harbours and lighthouses" alone, as if it answered.
    { name: "an amount asked that no quoted sentence holds is said to be missing, before the closest sentences · How much did the lighthouse cost to build?", question: "How much did the lighthouse cost to build?", startsWith: "The closest pages do not say how much; they say:", thin: false },
    // An amount quoted: no such note.
    { name: "an amount asked that no quoted sentence holds is said to be missing, before the closest sentences · How tall is the lighthouse?", question: "How tall is the lighthouse?", excludes: ["do not say"] },
    // Was "Admission is £6 for adults … Its collection includes the original Fresnel lens …": "its" is the museum's,
    // which the citation names; the admission sentence said nothing of the lens.
    { name: "'its' is read with the sentence before only when that one holds something asked, or says what is asked for", question: "What is the Fresnel lens?", contains: ["Its collection includes the original Fresnel lens"], excludes: ["Admission is £6"] },
  ],
};
