// A book club's notes beside the novel's character list. Asked over real HTTP; the pages are written by the
// test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { describesPerson } from "../../src/modules/answer/question";
import { brainOf } from "../support/sources";

const ask = brainOf("Book club", {
  "The Salt Road: characters": `# The Salt Road: characters

- **Ines Varga**: the narrator, a cartographer hired to map the salt flats in 1923.
- **Tomas Varga**: Ines's younger brother, who joins the expedition against her wishes.
- **Miriam Oduya**: the expedition's doctor and Ines's closest friend.
- **Kasim**: a local guide who knows the old caravan routes.`,
  "Book club notes, part two": `# Book club notes, part two

When Tomas falls ill with fever, Miriam saves his life with quinine from her own supplies. The expedition turns back, and Kasim leads them home by the northern wells.`,
});

test("'Who is <name>?' is the line describing them, without the page's title before it or another's line naming them", async () => {
  // Was "The Salt Road: characters: Ines Varga: the narrator, … Tomas Varga: Ines's younger brother, …": the
  // title was quoted for a name it holds, and her brother's line named her.
  const ines = await ask("Who is Ines Varga?");
  expect(ines.answer).toStartWith("Ines Varga: the narrator, a cartographer hired to map the salt flats in 1923.");
  expect(ines.answer).not.toContain("Tomas Varga");
  // A sentence opening with the name may join the description; one naming it in passing does not.
  const kasim = await ask("Who is Kasim?");
  expect(kasim.answer).toStartWith("Kasim: a local guide who knows the old caravan routes.");
  expect(kasim.answer).not.toContain("The expedition turns back");
  // "Who is the doctor?" asks for a name, and the line giving it answers.
  expect((await ask("Who is the doctor?")).answer).toContain("Miriam Oduya: the expedition's doctor");
});

test("only a name written with its capital is a person asked to be described", () => {
  expect(describesPerson("Who is Ines Varga?")).toBe(true);
  expect(describesPerson("Who was Thomas Wray?")).toBe(true);
  expect(describesPerson("Who is the narrator?")).toBe(false);
  expect(describesPerson("who is ines varga")).toBe(false);
  expect(describesPerson("What is Brightpay?")).toBe(false);
});
