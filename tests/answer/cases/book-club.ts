// A book club's notes beside the novel's character list. The pages are written by the
// test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const BOOK_CLUB_TABLE: AnswerTable = {
  brain: "Book club",
  pages: {
  "The Salt Road: characters": `# The Salt Road: characters

- **Ines Varga**: the narrator, a cartographer hired to map the salt flats in 1923.
- **Tomas Varga**: Ines's younger brother, who joins the expedition against her wishes.
- **Miriam Oduya**: the expedition's doctor and Ines's closest friend.
- **Kasim**: a local guide who knows the old caravan routes.`,
  "Book club notes, part two": `# Book club notes, part two

When Tomas falls ill with fever, Miriam saves his life with quinine from her own supplies. The expedition turns back, and Kasim leads them home by the northern wells.`,
},
  cases: [
    // Was "The Salt Road: characters: Ines Varga: the narrator, … Tomas Varga: Ines's younger brother, …": the
    // title was quoted for a name it holds, and her brother's line named her.
    { name: "'Who is <name>?' is the line describing them, without the page's title before it or another's line naming them · Who is Ines Varga?", question: "Who is Ines Varga?", excludes: ["Tomas Varga"], startsWith: "Ines Varga: the narrator, a cartographer hired to map the salt flats in 1923." },
    // A sentence opening with the name may join the description; one naming it in passing does not.
    { name: "'Who is <name>?' is the line describing them, without the page's title before it or another's line naming them · Who is Kasim?", question: "Who is Kasim?", excludes: ["The expedition turns back"], startsWith: "Kasim: a local guide who knows the old caravan routes." },
    // "Who is the doctor?" asks for a name, and the line giving it answers.
    { name: "'Who is <name>?' is the line describing them, without the page's title before it or another's line naming them · Who is the doctor?", question: "Who is the doctor?", contains: ["Miriam Oduya: the expedition's doctor"] },
  ],
};
