// A person a source names in full is the one another source names by first name alone ("Ines" of book club
// notes is the character list's Ines Varga), while no other person of the brain has that first name. Over
// real HTTP, with the job loop.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { personFirstNameAlias } from "../../src/concepts/keys";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const page = async (brainId: string, slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
const status = async (brainId: string, slug: string) => (await s.api(`/api/v1/brains/${brainId}/pages/${slug}`)).status;

test("a person's first name is the alias another source may name them by; not a name that is no person's", () => {
  expect(personFirstNameAlias("Ines Varga")).toBe("ines");
  expect(personFirstNameAlias("Tomás Ruiz")).toBe("tomas");
  expect(personFirstNameAlias("Grace Period")).toBeNull();
  expect(personFirstNameAlias("Kellan Point")).toBeNull();
  expect(personFirstNameAlias("Ines")).toBeNull();
});

test("notes naming characters by first name fill the pages of the character list's full names", async () => {
  const brainId = await newBrain(s, "Book club");
  // The list first, as a reader would add it, then the notes.
  await addTextsReady(s, brainId, {
    "The Salt Road: characters": "- **Ines Varga**: the narrator, a cartographer hired to map the salt flats in 1923.\n- **Tomas Varga**: Ines's younger brother, who joins the expedition against her wishes.",
  });
  await addTextsReady(s, brainId, {
    "Notes, part one": "The novel opens in Alexandria, where Ines signs on with the Imperial Survey. Tomas follows her onto the ship at the last moment.",
    "Notes, part two": "When Tomas falls ill with fever, Miriam saves his life. In chapter 14 Ines burns her maps.",
  });
  // Were pages of their own ("Ines", "Tomas"), apart from the character list's.
  const tomas = await page(brainId, "tomas-varga");
  expect(tomas.markdown).toContain("Tomas follows her onto the ship at the last moment");
  expect(tomas.markdown).toContain("When Tomas falls ill with fever");
  expect((await page(brainId, "ines-varga")).markdown).toContain("Ines burns her maps");
  expect(await status(brainId, "tomas")).toBe(404);
  expect(await status(brainId, "ines")).toBe(404);
  // The notes link the first name to the person's page.
  expect((await page(brainId, "notes-part-one")).markdown).toContain("[[tomas-varga|Tomas]]");
});

test("two people of one first name in a brain: the first name alone is neither's", async () => {
  const brainId = await newBrain(s, "Two Anas");
  await addTextsReady(s, brainId, { Team: "Ana Ruiz leads design. Ana Costa runs support.", "Org chart": "Design: Ana Ruiz. Support: Ana Costa." });
  await addTextsReady(s, brainId, { "Sync, 3 March": "Ana booked the study room.", "Sync, 10 March": "Ana moved the standup to 10:00." });
  expect((await page(brainId, "ana-ruiz")).markdown).not.toContain("Ana booked the study room");
  expect((await page(brainId, "ana-costa")).markdown).not.toContain("Ana booked the study room");
});

test("a first name the English lists lack is one when its source also names the person by it alone", async () => {
  const brainId = await newBrain(s, "Lab");
  await addTextsReady(s, brainId, {
    "Lab members": "Aiko Tanaka and Pieter de Vries are PhD students; Aiko works on seagrass and Pieter on kelp forests.",
  });
  await addTextsReady(s, brainId, {
    "Seagrass survey": "Aiko surveyed 14 seagrass meadows in Balsfjord between June and August 2026.",
    "Kelp notes": "Pieter's kelp transplant trial started in March 2026 at two sites. Aiko helped with the first dives.",
  });
  // Were "Aiko" and "Pieter", pages apart from the people, linked inside their full names ("[[aiko|Aiko]] Tanaka").
  expect((await page(brainId, "aiko-tanaka")).markdown).toContain("Aiko surveyed 14 seagrass meadows");
  expect((await page(brainId, "pieter-de-vries")).markdown).toContain("Pieter's kelp transplant trial started");
  expect(await status(brainId, "aiko")).toBe(404);
  expect((await page(brainId, "seagrass-survey")).markdown).toContain("[[aiko-tanaka|Aiko]] surveyed");
});
