// Which names another source's bare word joins: a person's surname does ("Curie" → Marie Curie); the last
// word of a show, an award or a company does not ("Blood" is not True Blood), and a surname two people share
// joins neither. Over real HTTP with the real job loop, and the rules themselves.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { databaseWithSources } from "../support/migrations";
import { migrate } from "../../src/db/client";
import { addText, newBrain, waitForSource } from "../support/sources";
import { AMBIGUOUS, cleanSurface, personSurnameAlias } from "../../src/concepts/keys";
import { claimOf } from "../../src/concepts/resolve";
import { extractConcepts } from "../../src/concepts/extract";
import { isPersonName, pronounOf } from "../../src/concepts/given-names";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const pageOf = async (brainId: string, slug: string) => {
  const res = await s.api(`/api/v1/brains/${brainId}/pages/${slug}`);
  return res.status === 404 ? null : (await expectJson(res, 200)).page;
};
const conceptSlugs = async (brainId: string) =>
  ((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=concept&limit=200`), 200)).pages as { slug: string }[]).map((p) => p.slug);

async function ready(brainId: string, title: string, content: string) {
  const { source } = await addText(s, brainId, title, content);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
}

describe("aliases across sources", () => {
  test("a bare word is not the last word of a show's or a company's name; a person's surname is the person", async () => {
    const brain = await newBrain(s, "Shows and science");
    await ready(brain, "Television notes", "True Blood is an HBO series created by Alan Ball. True Blood ran for seven seasons.");
    await ready(brain, "Drama awards", "True Blood won a Golden Globe in 2009. Viewers in Australia saw it on flights of Ansett Australia.");
    await ready(brain, "Circulation", "Blood carries oxygen through the body. Blood pressure rises with exercise. Blood cells are made in the marrow.");
    await ready(brain, "Airlines", "Ansett Australia was an airline based in Melbourne. Ansett Australia stopped flying in 2001. Many pilots of Ansett Australia found new jobs.");
    await ready(brain, "Geography", "Australia has six states. Australia exports iron ore. Most people in Australia live near the coast.");
    await ready(brain, "Physics", "Marie Curie discovered polonium in 1898 in Paris.");
    await ready(brain, "Radium", "Curie named radium after the Latin word for ray. Curie won two Nobel Prizes.");
    const slugs = await conceptSlugs(brain);
    expect(slugs).toEqual(expect.arrayContaining(["true-blood", "ansett-australia", "australia", "marie-curie"]));
    expect((await pageOf(brain, "true-blood"))!.markdown).not.toContain("carries oxygen");
    // "Blood" opening a sentence is the common noun, no name (English mostly writes it in lower case).
    expect(slugs).not.toContain("blood");
    expect((await pageOf(brain, "ansett-australia"))!.markdown).not.toContain("six states");
    expect((await pageOf(brain, "australia"))!.markdown).toContain("six states");
    // In one source naming both, the country is not the airline either.
    expect((await pageOf(brain, "australia"))!.markdown).toContain("Viewers in Australia");
    const curie = (await pageOf(brain, "marie-curie"))!;
    expect(curie.markdown).toContain("discovered polonium");
    expect(curie.markdown).toContain("named radium");
    expect(slugs).not.toContain("curie");
  });

  test("a surname two people share joins neither: the bare name is a concept of its own", async () => {
    const brain = await newBrain(s, "Singers");
    await ready(brain, "Crooners", "Andy Williams sang Moon River in 1962.");
    await ready(brain, "Rock and roll", "Larry Williams wrote Bony Moronie in 1957.");
    await ready(brain, "Reviews", "Williams sang on the radio every week. Critics praised Williams for his voice. Williams toured Japan in 1970.");
    const williams = await pageOf(brain, "williams");
    expect(williams?.kind).toBe("concept");
    expect(williams!.markdown).toContain("toured Japan");
    for (const person of ["andy-williams", "larry-williams"]) expect((await pageOf(brain, person))?.markdown ?? "").not.toContain("toured Japan");
  });
});

describe("alias rules", () => {
  test("only a name opening with a first name and ending in a word English writes capitalized gives a surname", () => {
    expect(["Marie Curie", "Andy Williams", "Mira Castellan", "John Wayne"].map(personSurnameAlias)).toEqual(["curie", "williams", "castellan", "wayne"]);
    // Not people, or a last word that is a common noun ("Roman" and "Solomon" are first names too).
    const none = ["True Blood", "Jazz Age", "Academy Award", "Ansett Australia", "United States Army", "Roman Empire", "Solomon Islands", "Alan Ball", "Western Europe"];
    expect(none.map(personSurnameAlias)).toEqual(none.map(() => null));
  });

  test("a first name written with accents is a first name ('Tomás', 'Zoë'), and joins its person's name", () => {
    expect(["Tomás Ruiz", "José Álvarez", "Zoë Kravitz"].map(isPersonName)).toEqual([true, true, true]);
    expect(pronounOf("Zoë")).toBe("she");
    // Was a concept of its own, its sentence missing from Tomás Ruiz's page.
    const md = "Attendees: Omar Haddad, Tomás Ruiz.\n\n- Tomás is hiring two backend engineers.";
    const concepts = extractConcepts([{ slug: "sync", title: "Sync", markdown: md }], "Sync");
    expect(concepts.map((c) => c.key)).not.toContain("tomas");
    expect(concepts.find((c) => c.key === "tomas-ruiz")?.mentions.map((m) => m.sentence)).toContain("Tomás is hiring two backend engineers.");
  });

  test("a role is dropped before a person's name only, never from a name of its own", () => {
    for (const [written, name] of [
      ["Engineer Mira Castellan", "Mira Castellan"],
      ["Queen Elizabeth", "Elizabeth"],
      ["Dr. Okafor", "Okafor"],
      ["Sir Isaac Newton", "Isaac Newton"],
      ["General Hospital", "General Hospital"],
      ["Captain America", "Captain America"],
      ["Prince Edward Island", "Prince Edward Island"],
      ["Saint Lucia", "Saint Lucia"],
      ["Emperor of China", "Emperor of China"],
      ["General Motors", "General Motors"],
    ]) expect(cleanSurface(written!)).toBe(name!);
  });

  test("an alias key claimed twice: a second name makes it ambiguous, a concept of its own stays one", () => {
    expect(claimOf("williams", "andy-williams", "andy-williams")).toBe("andy-williams");
    expect(claimOf("williams", "andy-williams", "larry-williams")).toBe(AMBIGUOUS);
    expect(claimOf("williams", AMBIGUOUS, "andy-williams")).toBe(AMBIGUOUS);
    expect(claimOf("williams", AMBIGUOUS, "williams")).toBe("williams"); // named alone after it became ambiguous
    expect(claimOf("australia", "australia", "ansett-australia")).toBe("australia");
    expect(claimOf("curie", "marie-curie", "curie")).toBe("marie-curie"); // named alone by a source prepared meanwhile
  });
});

test("0019 on a brain made before it: last-word claims of two- and three-word names go, short names and own keys stay", async () => {
  const db = await databaseWithSources("0019", tempDir(), "b1", []);
  await db.client.execute(`INSERT INTO concept_aliases (brain_id, alias, concept) VALUES
    ('b1', 'blood', 'true-blood'), ('b1', 'australia', 'ansett-australia'), ('b1', 'army', 'united-states-army'), ('b1', 'curie', 'marie-curie'),
    ('b1', 'northwind', 'northwind-coffee'), ('b1', 'marie-curie', 'marie-curie'), ('b1', 'zeiss', 'zeiss'), ('b1', 'bridge', 'old-stone-arch-bridge')`);
  await migrate(db.client);
  const rows = (await db.client.execute("SELECT alias, concept FROM concept_aliases ORDER BY alias")).rows.map((r) => `${r.alias}→${r.concept}`);
  // A person's surname goes too: the next source naming "Marie Curie" records it again.
  expect(rows).toEqual(["bridge→old-stone-arch-bridge", "marie-curie→marie-curie", "northwind→northwind-coffee", "zeiss→zeiss"]);
  db.close();
});
