// Concept pages across sources, inline links, leads, aliases, junk, and incremental removal, over real HTTP
// with the real job loop (no model: everything extractive).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { waitFor } from "../support/wait";
import { databaseWithSources } from "../support/migrations";
import { migrate } from "../../src/db/client";
import { refreshDirtyConcepts } from "../../src/concepts";
import { tempDir } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const page = async (brainId: string, slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
const pageStatus = async (brainId: string, slug: string) => (await s.api(`/api/v1/brains/${brainId}/pages/${slug}`)).status;
const listKind = async (brainId: string, kind: string) =>
  (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=${kind}&limit=200`), 200)).pages as any[];

async function ready(brainId: string, title: string, content: string) {
  const { source } = await addText(s, brainId, title, content);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  return source.id;
}

const BRIDGE =
  "The Halvard Bridge crosses the Vell estuary. Engineer Mira Castellan designed the Halvard Bridge for the Northern Rail Company. " +
  "Its steel arch opened to trains in 1931 after four years of work.";
const BIRTH =
  "Mira Castellan was born in Velsmouth, a harbour town on the Baltic coast. Castellan trained at the Zeiss works before she turned to bridges. " +
  "Her father kept the lighthouse of Velsmouth.";
const WORKSHOP = "The Zeiss works in Jena made lenses and precision instruments. Apprentices at the Zeiss works learned optics for three years.";

describe("concept pages", () => {
  let brainId: string;
  let bridgeSource: string;
  let birthSource: string;
  beforeAll(async () => {
    brainId = await newBrain(s, "Engineers");
    bridgeSource = await ready(brainId, "Halvard Bridge history", BRIDGE);
    birthSource = await ready(brainId, "Early life of an engineer", BIRTH);
    await ready(brainId, "Optical workshops", WORKSHOP);
  });

  test("a person named in two sources gets a concept page: lead, mentions linking both source pages, backlinks", async () => {
    const concept = await page(brainId, "mira-castellan");
    expect(concept).toMatchObject({ kind: "concept", title: "Mira Castellan", sourceId: null, edited: false });
    // Mention sentences, each linking to its source page.
    expect(concept.markdown).toContain("## Mentions");
    expect(concept.markdown).toContain("Velsmouth");
    expect(concept.markdown).toContain("designed the Halvard Bridge");
    expect(concept.links).toEqual(expect.arrayContaining(["halvard-bridge-history", "early-life-of-an-engineer"]));
    // The lead is a defining sentence from the sources, citing its page.
    expect(concept.markdown.split("\n")[0]).toMatch(/^Mira Castellan was born .* \(\[\[early-life-of-an-engineer\|Early life of an engineer\]\]\)\.$/);
    // Said once: the lead's sentence is not listed again under Mentions.
    const lead = concept.markdown.split("\n")[0];
    expect(concept.markdown.split("\n").filter((line: string) => line.replace(/^- /, "") === lead)).toEqual([lead]);
    // Both source pages link to it inline, so they are its backlinks.
    expect(concept.backlinks).toEqual(expect.arrayContaining(["halvard-bridge-history", "early-life-of-an-engineer"]));
  });

  test("source pages carry inline [[slug|Title]] links to the concepts they name; the title is shown in html", async () => {
    const bridge = await page(brainId, "halvard-bridge-history");
    expect(bridge.kind).toBe("source");
    expect(bridge.markdown).toContain("[[mira-castellan|Mira Castellan]]");
    expect(bridge.links).toContain("mira-castellan");
    expect(bridge.html).toContain(`<a href="/api/v1/brains/${brainId}/pages/mira-castellan"`);
    expect(bridge.html).toContain(">Mira Castellan</a>");
    expect(bridge.html).not.toContain("[[");
  });

  test("aliases merge: 'Castellan' alone and 'the Zeiss works' / 'Zeiss works' join one concept each", async () => {
    const birth = await page(brainId, "early-life-of-an-engineer");
    expect(birth.markdown).toContain("[[mira-castellan|Mira Castellan]]");
    const concepts = (await listKind(brainId, "concept")).map((p) => p.slug);
    expect(concepts).not.toContain("castellan");
    expect(concepts).toContain("zeiss");
    expect(concepts.filter((c) => c.startsWith("zeiss"))).toEqual(["zeiss"]);
    const zeiss = await page(brainId, "zeiss");
    expect(zeiss.markdown).toContain("Jena");
    expect(zeiss.markdown).toContain("trained at the Zeiss works");
  });

  test("no junk concept pages: pronouns, dates, numbers, one-letter words, generic words", async () => {
    const concepts = await listKind(brainId, "concept");
    for (const c of concepts) {
      expect(c.slug).not.toMatch(/^(?:her|she|it|its|introduction|summary|\d+|[a-z])$/);
      expect(c.sourceId).toBeNull();
      expect(c.kind).toBe("concept");
    }
    expect(concepts.map((c) => c.slug)).not.toContain("1931");
  });

  test("a currency code in every row of a price table is no concept page; the product names are", async () => {
    const brain = await newBrain(s, "Prices");
    await ready(brain, "Engine prices", "| Engine | Monthly cost |\n|---|---|\n| Trino | 14,000 EUR |\n| Spark SQL | 9,500 EUR |\n| Snowflake | 31,000 EUR |");
    await ready(brain, "Engine choice", "We compared Trino, Spark SQL and Snowflake. Snowflake costs 31,000 EUR a month.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["trino", "snowflake"]));
    expect(slugs).not.toContain("eur");
  });

  test("units of measure are no concept pages ('1,609 sq mi', 'square kilometres'); a place named after one is", async () => {
    const brain = await newBrain(s, "Islands");
    await ready(brain, "Tahiti", "Tahiti covers 1,045 square kilometres (403 sq mi). Visitors arrive at Faa'a airport and walk to Times Square Market.");
    await ready(brain, "Moorea", "Moorea covers 134 square kilometres (52 sq mi). A ferry links it to Tahiti and to the Times Square Market.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["times-square-market"]));
    expect(slugs.filter((slug) => /^(?:sq|square)-/.test(slug))).toEqual([]);
    // Nor are sizes in bytes ("a 160 MiB binary").
    const sizes = await newBrain(s, "Sizes");
    await ready(sizes, "Binary", "The binary is 160 MiB and idles at 200 MB. Each page is 4 KiB.");
    await ready(sizes, "Footprint", "Leaving out the models saved 10 MiB; the database grows 150 KiB a source.");
    expect((await listKind(sizes, "concept")).map((c) => c.slug).filter((slug) => /^(?:mib|mb|kib)$/.test(slug))).toEqual([]);
  });

  test("an ordinal's day or week ('from the fourth day of sickness') is no concept page; the tool named in both sources is", async () => {
    const brain = await newBrain(s, "Leave");
    await ready(brain, "Sick leave", "From the fourth day of sickness you need a doctor's note. Record sick days in Personio.");
    await ready(brain, "Parental leave", "Parental leave starts on the fourth day after the birth at the latest. Request it in Personio.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toContain("personio");
    expect(slugs).not.toContain("fourth-day");
  });

  test("a day placed by the text around it ('the following day', 'the former president') is no concept page", async () => {
    const brain = await newBrain(s, "Relative");
    await ready(brain, "Wreck", "The following day the former president visited the harbour town. The wreck was found by Argo.");
    await ready(brain, "Survey", "The survey ship Argo returned the following day. The former president thanked the harbour town.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toContain("argo");
    expect(slugs).toContain("harbour-town");
    for (const vague of ["following-day", "former-president"]) expect(slugs).not.toContain(vague);
  });

  test("document section names ('Release Notes', 'Known Issues', 'Next Steps') are no concept pages in a brain of READMEs", async () => {
    const brain = await newBrain(s, "READMEs");
    await ready(brain, "Pump controller", "**Release Notes**\n\nVersion 2 speaks Modbus.\n\n**Known Issues**\n\nNone.\n\n**Next Steps**\n\nRead the Release Notes of the valve.");
    await ready(brain, "Valve controller", "**Release Notes**\n\nThe valve speaks Modbus too.\n\n**Known Issues**\n\nA slow start.\n\n**Next Steps**\n\nSee the Known Issues first.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toContain("modbus");
    expect(slugs.filter((slug) => /^(?:release-notes?|known-issues?|next-steps?)$/.test(slug))).toEqual([]);
  });

  test("a team page's heading that is a person's name is a mention; title-cased section headings two runbooks share are not", async () => {
    const brain = await newBrain(s, "Team");
    await ready(brain, "Platform team", "# Platform team\n\n## Maria Okafor\n\nLeads the group and approves production changes.\n\n## Tomas Becker\n\nSite reliability engineer.\n\n## Rollback Plan\n\nRevert the release.");
    await ready(brain, "Billing rollout", "## Rollback Plan\n\nMaria Okafor approved the rollout on Monday. Revert the billing release if errors rise.");
    await ready(brain, "Incident 2291", "Tomas Becker promoted the replica after seven minutes on the morning of 14 March.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toContain("maria-okafor");
    expect(slugs).not.toContain("rollback-plan");
    const maria = await page(brain, "maria-okafor");
    expect(maria.markdown).toContain("Platform team");
    expect(maria.markdown).toContain("Billing rollout");
    expect(maria.markdown).toContain("Maria Okafor: Leads the group and approves production changes");
    // The label with its role is the lead, over a longer sentence that opens with the name.
    expect((await page(brain, "tomas-becker")).markdown.startsWith("Tomas Becker: Site reliability engineer")).toBe(true);
  });

  test("a phrase capitalized because it opens a sentence or follows a label is the concept another source writes in lower case", async () => {
    const brain = await newBrain(s, "Clinic");
    await ready(brain, "Our team", "**Dr. Aisha Rahman**: Principal dentist. She signs off all treatment plans above £1,000.\n\n**Grace Mbeki**: Practice manager. She handles rotas.");
    await ready(brain, "Fees", "A routine check-up costs £55. Treatment plans above £1,000 can be paid in three monthly instalments.");
    await ready(brain, "Staff leave", "Leave requests go to the practice manager at least four weeks in advance.");
    const concepts = await listKind(brain, "concept");
    const slugs = concepts.map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["treatment-plan", "practice-manager"]));
    const plan = await page(brain, "treatment-plan");
    expect(plan.markdown).toContain("Our team");
    expect(plan.markdown).toContain("Fees");
    expect((await page(brain, "practice-manager")).markdown).toContain("Staff leave");
    // Titled and linked as the lower-case phrase, the sentence's capital kept where it is written.
    expect(concepts.find((c) => c.slug === "treatment-plan").title).toBe("treatment plans");
    expect((await page(brain, "fees")).markdown).toContain("[[treatment-plan|Treatment plans]] above £1,000");
    // The role's capitalized first word alone was taken for a name.
    expect(slugs).not.toContain("practice");
    expect(slugs).not.toContain("principal");
  });

  test("a first name alone is the one person of its source so named; two people of one first name keep it apart", async () => {
    const brain = await newBrain(s, "Syncs");
    await ready(brain, "Sync, 3 March", "Attendees: Ana Ruiz, Ben Okoye.\n\n- Ben: write the migration guide.\n- Ana: confirm the price change.");
    await ready(brain, "Sync, 17 March", "Attendees: Ana Ruiz, Ben Okoye, Dev Patel.\n\nBen finished the migration guide. Ana booked the study.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["ben-okoye", "ana-ruiz"]));
    expect(slugs).not.toContain("ben");
    expect((await page(brain, "ben-okoye")).markdown).toContain("Ben finished the migration guide");
    // Two Bens in one source: "Ben" alone is neither.
    const other = await newBrain(s, "Two Bens");
    await ready(other, "Crew A", "Ben Okoye and Ben Carter joined the crew. Ben led the first dive.");
    await ready(other, "Crew B", "Ben Okoye and Ben Carter trained together. Ben wrote the dive log.");
    expect((await page(other, "ben-okoye")).markdown).not.toContain("Ben led the first dive");
  });

  test("a common noun a sentence opens by defining is a name: 'Orbit is the order service …' leads Orbit's page", async () => {
    const brain = await newBrain(s, "Orbit");
    await ready(brain, "Orbit architecture", "Orbit is the order service behind the mobile app. It is written in Go and runs on three clusters.");
    await ready(brain, "Team", "Lena Hoffmann is the engineering manager of the Orbit team. The team meets every weekday.");
    const orbit = await page(brain, "orbit");
    expect(orbit.markdown).toStartWith("Orbit is the order service behind the mobile app ([[orbit-architecture|");
    expect(orbit.markdown).toContain("Team");
    // Opening a sentence without defining it, a common noun is still no name ("Development will ensue").
    await ready(brain, "Plans A", "Development will ensue next year. The plan has three phases.");
    await ready(brain, "Plans B", "Development will slow in winter. The plan was approved.");
    expect((await listKind(brain, "concept")).map((c) => c.slug)).not.toContain("development");
  });

  test("numbered document labels (Step 1, Version 2, Appendix B, Table 1) are no concept pages in a set of manuals; the product named in both is", async () => {
    const brain = await newBrain(s, "Manuals");
    await ready(brain, "Pump manual", "Step 1: close the intake valve as shown in Figure 2. The pressure limits are listed in Table 1 of Section 3. See Appendix B for the wiring diagram. Version 2 of the controller uses Modbus.");
    await ready(brain, "Valve manual", "Step 3: open the bypass as shown in Figure 5. Torque values are in Table 2 of Section 7. Appendix B lists spare parts. Version 3 of the firmware adds Modbus logging.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toContain("modbus");
    for (const label of ["step", "version", "appendix-b", "appendix", "table", "figure", "section"]) expect(slugs).not.toContain(label);
  });

  test("a name the tagger reads in pieces is one concept, named in full; a preposition does not join two names; no plural opening word", async () => {
    const brain = await newBrain(s, "Names");
    await ready(brain, "Ulbricht", "As a young student Konrad Ulbricht studied at the School of Building Arts. He sold fish at the Wystan Market Hall. Visitors came every summer.");
    await ready(brain, "Ferreira", "As a young student Cyril Ferreira studied ironwork at the Mariners' Institute in Corrowick, then at the School of Building Arts.");
    await ready(brain, "Market days", "Fish and grain were sold at the Wystan Market Hall. Students of the Mariners' Institute came on Fridays. Visitors still come.");
    // A person's possessive before a name is not part of it: Cyril Ferreira is named twice, apart from it.
    await ready(brain, "Ferreira's Forge", "Cyril Ferreira's Iron Forge stood in Corrowick.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["school-of-building-arts", "wystan-market-hall", "mariners-institute"]));
    // Nor is a plural common noun opening two sentences a name ("Visitors came", "Visitors still come"), nor
    // "a young student" an idea.
    for (const fragment of ["arts", "hall", "wystan", "institute", "mariners", "institute-in-corrowick", "visitors", "visitor", "young-student"]) expect(slugs).not.toContain(fragment);
    expect((await page(brain, "mariners-institute")).title).toBe("Mariners' Institute");
    expect(slugs).toContain("cyril-ferreira");
    expect(slugs.filter((slug) => slug.startsWith("cyril-ferreira-"))).toEqual([]);
  });

  test("a sentence's opening conjunction and a role before 'of' stay out of names; a place is not known by its last word", async () => {
    const brain = await newBrain(s, "Places");
    await ready(brain, "Tours", "Wells took a tour to Europe in 1893. While Kara stayed in Western Europe, the Emperor of China wrote. '' As Mars rose, they left.");
    await ready(brain, "Trade", "Trade with Europe grew every year. While Kara slept, the Emperor of China waited. As Mars rose over Western Europe, the fleet sailed.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["europe", "western-europe", "kara", "emperor-of-china", "mars"]));
    for (const fragment of ["while-kara", "as-mars", "of-china"]) expect(slugs).not.toContain(fragment);
    // "Europe" alone is its own place: Western Europe's sentences are not its mentions.
    const europe = await page(brain, "europe");
    expect(europe.markdown).toContain("Trade with Europe grew");
    expect(europe.markdown).not.toContain("stayed in Western Europe");
    const { surnameAlias } = await import("../../src/concepts/keys");
    expect(["Western Europe", "North Korea", "East Berlin", "New Guinea"].map(surnameAlias)).toEqual([null, null, null, null]);
    expect(surnameAlias("Marie Curie")).toBe("curie");
  });

  test("an organization's short name is the same concept, whichever source comes first", async () => {
    const FULL = "Northwind Coffee was founded in 2009 by Lena Ortiz in Tacoma. Northwind now roasts about 40 tonnes a year.";
    const SHORT = "Northwind sells to about 120 cafes in Tacoma and Seattle.";
    const LATER = "Harbor Light is the house espresso of Northwind Coffee, first roasted in 2012.";
    for (const [n, order] of [[FULL, SHORT, LATER], [SHORT, FULL, LATER]].entries()) {
      const brain = await newBrain(s, `Roasters ${n}`);
      for (const [i, text] of order.entries()) await ready(brain, `Roastery notes ${i}`, text);
      const northwind = (await listKind(brain, "concept")).filter((c) => c.slug.startsWith("northwind"));
      expect(northwind.map((c) => c.title)).toEqual(["Northwind Coffee"]); // the full name is its title
      const concept = await page(brain, northwind[0]!.slug);
      for (const text of order) expect(concept.markdown).toContain(text.split(" ").slice(1, 4).join(" "));
      // Every source links the one page, under the name as written.
      expect(concept.backlinks.filter((b: string) => b.startsWith("roastery-notes-")).sort()).toEqual(["roastery-notes-0", "roastery-notes-1", "roastery-notes-2"]);
      expect((await page(brain, "roastery-notes-0")).markdown).toMatch(new RegExp(`\\[\\[${northwind[0]!.slug}\\|Northwind( Coffee)?\\]\\]`));
    }
  });

  test("within one write batch too: the short name named first meets the full name named after it", async () => {
    const brain = await newBrain(s, "Roasters batch");
    const sources = [
      { title: "Cafes", content: "Northwind sells to about 120 cafes in Tacoma and Seattle." },
      { title: "History", content: "Northwind Coffee was founded in 2009 by Lena Ortiz in Tacoma." },
    ];
    const { results } = await expectJson(await s.api(`/api/v1/brains/${brain}/sources/batch`, { method: "POST", json: { sources } }), 200);
    for (const r of results) expect((await waitForSource(s, brain, r.source.id)).status).toBe("ready");
    const northwind = (await listKind(brain, "concept")).filter((c) => c.slug.startsWith("northwind"));
    expect(northwind.map((c) => c.title)).toEqual(["Northwind Coffee"]);
    expect((await page(brain, "history")).markdown).toContain(`[[${northwind[0]!.slug}|Northwind Coffee]]`);
    expect((await page(brain, "cafes")).markdown).toContain(`[[${northwind[0]!.slug}|Northwind]]`);
  });

  test("a short name that is an ordinary word, or a person's surname, is not taken for the organization", async () => {
    const brain = await newBrain(s, "Makers");
    await ready(brain, "Cars", "In 1926 General Motors built the plant. Later General Ada Marsh visited it. The Ortiz Coffee cart stands at the gate, run by Lena Ortiz.");
    await ready(brain, "More cars", "In 1987 General Motors closed the plant. Lena Ortiz still sells coffee there. Ortiz Coffee has a second cart.");
    const slugs = (await listKind(brain, "concept")).map((c) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(["general-motors", "ortiz-coffee", "lena-ortiz"]));
    for (const short of ["general", "motors", "ortiz", "coffee"]) expect(slugs).not.toContain(short);
    // Ortiz is also the person's surname: the cart and she stay two concepts.
    expect((await page(brain, "ortiz-coffee")).title).toBe("Ortiz Coffee");
    expect((await page(brain, "general-motors")).title).toBe("General Motors");
  });

  test("the list filters by kind, and kind is on every row", async () => {
    const sources = await listKind(brainId, "source");
    expect(sources.map((p) => p.slug).sort()).toEqual(["early-life-of-an-engineer", "halvard-bridge-history", "optical-workshops"]);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=video`), 422);
  });

  test("deleting a source updates only its concepts; the last mention going removes the page unless it was edited", async () => {
    expect(await pageStatus(brainId, "mira-castellan")).toBe(200);
    const zeissBefore = await page(brainId, "zeiss");
    // The owner edits the Zeiss concept page: it must outlive its mentions.
    const edited = await expectJson(
      await s.api(`/api/v1/brains/${brainId}/pages/zeiss`, { method: "PUT", json: { markdown: `${zeissBefore.markdown}\n\nOwner's note: founded in 1846.` } }),
      200,
    );
    expect(edited.page).toMatchObject({ edited: true, sourceChanged: false, revision: zeissBefore.revision + 1 });

    expect((await s.api(`/api/v1/brains/${brainId}/sources/${birthSource}`, { method: "DELETE" })).status).toBe(204);
    // Mira Castellan is now named by one source only, once: her page goes (in the job loop).
    await waitFor(async () => (await pageStatus(brainId, "mira-castellan")) === 404);
    // The bridge is central to its own source (named in its title and twice): its page stays.
    expect(await pageStatus(brainId, "halvard-bridge")).toBe(200);
    const bridge = await page(brainId, "halvard-bridge-history");
    expect(bridge.html).not.toContain("/pages/mira-castellan"); // a link to a removed page shows as text
    expect(bridge.html).toContain("Mira Castellan");

    const workshop = (await listKind(brainId, "source")).find((p) => p.slug === "optical-workshops")!;
    expect((await s.api(`/api/v1/brains/${brainId}/sources/${workshop.sourceId}`, { method: "DELETE" })).status).toBe(204);
    await waitFor(async () => (await page(brainId, "zeiss")).sourceChanged === true);
    expect((await page(brainId, "zeiss")).markdown).toContain("Owner's note: founded in 1846.");
    expect((await s.api(`/api/v1/brains/${brainId}/sources/${bridgeSource}`, { method: "DELETE" })).status).toBe(204);
    await waitFor(async () => (await pageStatus(brainId, "halvard-bridge")) === 404);
  });
});

describe("leads and notes", () => {
  test("a synthesized page opens with its lead; a note stays verbatim and is never rewritten", async () => {
    const brainId = await newBrain(s, "Leads");
    const text =
      "Grain mills were common along the river. The mill at Ostby ground wheat for the valley. " +
      "Water wheels turned the millstones of the Ostby mill. The Ostby mill ground wheat and rye for the valley farms until 1950. " +
      "Farmers brought wheat to the mill on carts.";
    await ready(brainId, "Mills", text);
    const mills = (await page(brainId, "mills")).markdown.replace(/\[\[[^|\]]+\|([^\]]+)\]\]/g, "$1");
    // The most central sentence is in the opening paragraph: a copy above it would say it twice in the
    // page's first lines, so the page opens with that paragraph and says the sentence once.
    expect(mills).toStartWith("Grain mills were common along the river. The mill at Ostby ground wheat for the valley.");
    expect(mills.split("The mill at Ostby ground wheat for the valley.").length).toBe(2);
    // A central sentence further down is copied above the opening as its lead.
    await ready(
      brainId,
      "Ostby mill history",
      "Grain mills were common along the river.\n\n" +
        "The mill at Ostby ground wheat for the valley. Water wheels turned the millstones of the Ostby mill. " +
        "The Ostby mill ground wheat and rye for the valley farms until 1950. Farmers brought wheat to the mill on carts.",
    );
    const [lead, body] = (await page(brainId, "ostby-mill-history")).markdown.replace(/\[\[[^|\]]+\|([^\]]+)\]\]/g, "$1").split("\n\n");
    expect(lead).toBe("The mill at Ostby ground wheat for the valley.");
    expect(body).toStartWith("Grain mills were common along the river.");
    // Sentences that share no word: the one naming the page's title stays first, the shortest is not the lead.
    await ready(
      brainId,
      "The Kestrel lighthouse",
      "The Kestrel lighthouse was designed by Ada Quill, an engineer from Dunmore. It stands above Port Salter harbour. The lamp was first lit in 1871.",
    );
    const kestrel = (await page(brainId, "the-kestrel-lighthouse")).markdown.replace(/\[\[[^|\]]+\|([^\]]+)\]\]/g, "$1");
    expect(kestrel).toStartWith("The Kestrel lighthouse was designed by Ada Quill");
    expect(kestrel.split("The lamp was first lit in 1871.").length).toBe(2);
    const note = "Remember: Ostby mill opens at 9. Ostby mill, Ostby mill, Ostby mill.";
    const { source } = await expectJson(
      await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "My note", content: note, mode: "note" } }),
      201,
    );
    await waitForSource(s, brainId, source.id);
    const saved = await page(brainId, "my-note");
    expect(saved).toMatchObject({ kind: "note", markdown: note });
  });
});

describe("leads of structured pages", () => {
  test("a page in sections takes its lead from its introduction; a FAQ (labelled entries) gets none", async () => {
    const brainId = await newBrain(s, "Structured leads");
    const runbook =
      "# On-call runbook\n\nThe on-call engineer is paged through PagerDuty. Acknowledge a page within 5 minutes.\n\n" +
      "## Database failover\n\nIf the primary database fails, promote a replica. Failover normally completes in under two minutes. After a failover, tell the billing team about the failover.\n\n" +
      "## High error rate\n\nCheck the Grafana dashboard first. Roll back the last deploy if the errors started with it.";
    await ready(brainId, "On-call runbook", runbook);
    const paged = (await page(brainId, "on-call-runbook")).markdown.replace(/\[\[[^|\]]+\|([^\]]+)\]\]/g, "$1");
    // "Failover …" is central to its own section, not to the page: no section's sentence leads it, and the
    // introduction, which opens the page, is not copied above itself.
    expect(paged.split("\n\n")[1]).toBe("The on-call engineer is paged through PagerDuty. Acknowledge a page within 5 minutes.");
    expect(paged.split("Failover normally completes").length).toBe(2);
    expect(paged.split("The on-call engineer is paged through PagerDuty.").length).toBe(2);
    const faq =
      "**How do I get a staging account?**\nOpen a ticket in the IT portal; staging accounts are created within one working day.\n\n" +
      "**Where are the logs?**\nApplication logs go to Loki and are kept for 30 days. Audit logs are kept for one year in S3. Logs older than that are deleted.";
    await ready(brainId, "FAQ", faq);
    expect((await page(brainId, "faq")).markdown).toStartWith("**How do I get a staging account?**");
  });

  test("an answer quotes the sentences in the page's reading order, not the lead's copy first", async () => {
    const brainId = await newBrain(s, "Release leads");
    await ready(
      brainId,
      "Release 4.2",
      "# Release 4.2\n\nRelease 4.2 adds idempotency keys to the order API: a client that retries a POST with the same Idempotency-Key header gets the first response back instead of a duplicate order.\n\n" +
        "The release also raises the page size limit of GET /orders from 100 to 500 and removes the deprecated v1 endpoints. Clients still on v1 must move to v2 before 1 March 2026.",
    );
    const markdown = (await page(brainId, "release-4-2")).markdown;
    const lead = markdown.split("\n\n")[1]!;
    expect(markdown.split(lead).length).toBe(3); // the lead is a copy of a body sentence
    const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "What's new in release 4.2?" } }), 200);
    expect(body.answer).toStartWith("Release 4.2 adds idempotency keys to the order");
  });
});

describe("bounds and languages", () => {
  test("a source naming 5,000 candidate concepts is bounded: at most 25 concept links per page, 40 concepts per source", async () => {
    const brainId = await newBrain(s, "Crowd");
    const names = Array.from({ length: 5000 }, (_, i) => `Person${i} Surname${i}`);
    const text = names.map((n) => `${n} met ${n} and ${n} again.`).join(" ");
    const id = await ready(brainId, "A crowd", text);
    const rows = await s.ctx.database.client.execute({ sql: "SELECT count(DISTINCT concept) AS n FROM concept_mentions WHERE source_id = ?", args: [id] });
    expect(Number(rows.rows[0]!.n)).toBeLessThanOrEqual(40);
    const pages = await listKind(brainId, "source");
    for (const p of pages) expect((await page(brainId, p.slug)).links.length).toBeLessThanOrEqual(25);
    expect((await listKind(brainId, "concept")).length).toBeGreaterThan(0);
  });

  test("non-English text: no crash, the source is ready", async () => {
    const brainId = await newBrain(s, "Languages");
    await ready(brainId, "東京", "東京は日本の首都です。東京タワーは有名です。");
    await ready(brainId, "Hamburg", "Der Hafen von Hamburg ist groß. Hamburg liegt an der Elbe. Die Elbe fließt in die Nordsee.");
    await ready(brainId, "Ελλάδα", "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.");
  });
});


test("0020 on a brain made before it: numbered-label concept pages lose their mentions and are removed by the refresh it queues", async () => {
  const db = await databaseWithSources("0020", tempDir(), "b1", [["s1", "text", "Pump manual"], ["s2", "text", "Valve manual"]]);
  const concepts = ["step", "appendix-b", "figure-4-1", "part-ii", "modbus", "step-functions", "version-control"];
  for (const concept of concepts) {
    await db.client.execute({ sql: "INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown) VALUES ('b1', NULL, 'concept', ?, ?, 'x')", args: [concept, concept] });
    for (const source of ["s1", "s2"])
      await db.client.execute({ sql: "INSERT INTO concept_mentions (brain_id, concept, source_id, page_slug, surface, sentence) VALUES ('b1', ?, ?, 'p', 'x', 'x')", args: [concept, source] });
  }
  await migrate(db.client);
  const mentioned = (await db.client.execute("SELECT DISTINCT concept FROM concept_mentions ORDER BY concept")).rows.map((r) => r.concept);
  expect(mentioned).toEqual(["modbus", "step-functions", "version-control"]);
  const dirty = (await db.client.execute("SELECT concept FROM concept_dirty ORDER BY concept")).rows.map((r) => r.concept);
  expect(dirty).toEqual(["appendix-b", "figure-4-1", "part-ii", "step"]);
  const jobs = (await db.client.execute("SELECT kind, subject_id, status FROM jobs")).rows.map((r) => `${r.kind} ${r.subject_id} ${r.status}`);
  expect(jobs).toEqual(["wiki-refresh b1 queued"]);
  // What that job does: the pages left without mentions go, the others stay.
  await refreshDirtyConcepts({ db: db.db, embedder: null }, "b1");
  const pages = (await db.client.execute("SELECT slug FROM pages WHERE kind = 'concept' ORDER BY slug")).rows.map((r) => r.slug);
  expect(pages).toEqual(["modbus", "step-functions", "version-control"]);
  db.close();
});
