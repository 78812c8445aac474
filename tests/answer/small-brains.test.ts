// Answers in a small brain (the common first brain: a handful of sources), the inputs that used to break
// the evidence (one word, only stopwords, numbers as words, another script, a one-page brain), and
// /context's `limit` on both surfaces and over MCP. Pages are written by the test; answers are checked for
// the fact and the page they cite, never against a stored answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectMcp, type McpSession } from "../mcp/support";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, askBrain, newBrain, waitForSource } from "../support/sources";

const COAST: Record<string, string> = {
  "The Wreck of the Oriel":
    "The Oriel was a three-masted barque carrying timber from Quebec. In the gale of March 1881 she struck the reef off Skerry Point. The keepers rowed out and rescued eleven of the crew. Four sailors drowned before the boat reached them.",
  "Skerry Point Lighthouse":
    "Skerry Point Lighthouse stands on a granite spur at the mouth of the bay. Its lamp was first lit in 1859 and was converted to electricity in 1952. Two keepers and their families lived in the cottages below the tower.",
  "Hilltop Observatory":
    "Hilltop Observatory was founded by the county astronomical society in 1962. Its main telescope is a 2.4 metre reflector housed under a silver dome. Public viewing nights are held on the first Friday of every month.",
  "Harbour Market":
    "The harbour market opens every Saturday morning on the old quay. Fishermen sell crab, mackerel and lobster straight from their boats. In summer the stalls stay open until late evening.",
  "Village School":
    "The village school was built of local stone in 1874. It has two classrooms and a walled garden where pupils grow vegetables. Around forty children attend the school today.",
  "Coastal Path":
    "The coastal path runs twelve miles from the harbour to the lighthouse. Walkers pass sea caves, a ruined chapel and colonies of puffins. The path is steep in places and closes during storms.",
  "Parish Church":
    "St Brendan's church dates from the twelfth century. Its bell tower was rebuilt after a lightning strike in 1790. Memorial plaques inside name sailors lost at sea.",
  "Lifeboat Station":
    "The lifeboat station was opened in 1895 after a string of shipwrecks on the reef. Its volunteer crew launch the boat down a slipway in under ten minutes. The station has saved more than three hundred lives.",
};

let s: TestServer;
let brainId: string;
let onePageBrain: string;
const sourceOf: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Coast");
  for (const [title, content] of Object.entries(COAST)) sourceOf[title] = (await addText(s, brainId, title, content)).source.id;
  onePageBrain = await newBrain(s, "One page");
  const one = await addText(s, onePageBrain, "Hilltop Observatory", COAST["Hilltop Observatory"]!);
  for (const id of Object.values(sourceOf)) await waitForSource(s, brainId, id);
  await waitForSource(s, onePageBrain, one.source.id);
});
afterAll(() => s.close());

const ask = (question: string, brain = brainId) => askBrain(s, brain, question, "unversioned");
const cited = (body: any) => body.citations.map((c: any) => c.documentId);
/** A brain of the given pages (title → text), every source ready; its source ids by title. */
async function brainOf(name: string, pages: Record<string, string>) {
  const brain = await newBrain(s, name);
  const sourceOf: Record<string, string> = {};
  for (const [title, content] of Object.entries(pages)) sourceOf[title] = (await addText(s, brain, title, content)).source.id;
  for (const id of Object.values(sourceOf)) await waitForSource(s, brain, id);
  return { brain, sourceOf };
}

describe("answers in an eight-source brain", () => {
  test("who rescued the crew of the Oriel: answered from the wreck's page", async () => {
    const body = await ask("Who rescued the crew of the Oriel and how many were saved?");
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("rescued eleven of the crew");
    expect(cited(body)).toContain(sourceOf["The Wreck of the Oriel"]);
  });

  test("how tall is the main telescope: answered with the 2.4 metre reflector", async () => {
    const body = await ask("How tall is the main telescope?");
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("2.4 metre reflector");
    expect(cited(body)).toContain(sourceOf["Hilltop Observatory"]);
  });

  test("numbers written as words match digits, and digits match words", async () => {
    const words = await ask("When was the lamp at Skerry Point converted to electricity, in nineteen fifty two?");
    expect(words.thin).toBe(false);
    expect(words.answerMd).toContain("1952");
    const digits = await ask("Were 11 of the Oriel's crew rescued by the keepers?");
    expect(digits.thin).toBe(false);
    expect(cited(digits)).toContain(sourceOf["The Wreck of the Oriel"]);
  });

  test("the answer reads as whole sentences with one citation per page run", async () => {
    const body = await ask("What happened to the Oriel in the gale of March 1881?");
    expect(body.thin).toBe(false);
    // Every sentence is whole (ends with its stop) and no two citations follow each other.
    expect(body.answerMd).not.toMatch(/\]\]\s*\[\[/);
    for (const run of body.answerMd.split(/\s*\[\[[^\]]+\]\]\s*/).filter(Boolean)) expect(run).toMatch(/[.!?]$/);
  });

  test("a question the brain cannot answer is thin", async () => {
    const body = await ask("What is the boiling point of liquid nitrogen?");
    expect(body).toMatchObject({ thin: true, citations: [] });
  });

  test("one word, only stopwords, another script: clear answers, no errors", async () => {
    const one = await ask("telescope");
    expect(typeof one.thin).toBe("boolean");
    if (!one.thin) expect(cited(one)).toContain(sourceOf["Hilltop Observatory"]);
    expect(await ask("what is the")).toMatchObject({ thin: true, citations: [] });
    expect(await ask("?!")).toMatchObject({ thin: true, citations: [] });
    expect(await ask("望遠鏡の高さはどれくらいですか？")).toMatchObject({ thin: true, citations: [] });
    expect(await ask("Πόσο ψηλό είναι το τηλεσκόπιο;")).toMatchObject({ thin: true, citations: [] });
  });

  test("a brain of one page answers what the page says and is thin on the rest", async () => {
    const body = await ask("How tall is the main telescope?", onePageBrain);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("2.4 metre");
    expect(await ask("Who rescued the crew of the Oriel?", onePageBrain)).toMatchObject({ thin: true, citations: [] });
  });
});

// A staff handbook: "should", "must", "get" are words a question asks with, which a page uses for other
// things; a plural "-ings" is its singular's word; a sentence saying none of the question is no answer.
describe("a staff handbook", () => {
  let handbook: string;
  beforeAll(async () => {
    handbook = await newBrain(s, "Clinic handbook");
    const pages = {
      Appointments: "New patients should arrive 15 minutes early to fill in the medical history form. Patients must cancel 24 hours ahead.",
      "Staff leave and pay":
        "Full-time staff get 28 days of annual leave including bank holidays. Staff are paid monthly on the last working day of the month. " +
        "Leave requests go to the practice manager at least four weeks in advance, and no more than two nurses may be on leave at the same time. " +
        "If you are ill, phone the practice manager before 7:30 on the first morning of absence.",
      Fees: "A routine check-up costs £55 and a scale and polish costs £70. White fillings start at £120. A new patient examination costs £85.",
    };
    for (const [title, content] of Object.entries(pages)) await waitForSource(s, handbook, (await addText(s, handbook, title, content)).source.id);
  });
  const askHandbook = async (question: string) =>
    expectJson(await s.api(`/api/v1/brains/${handbook}/ask`, { method: "POST", json: { question } }), 200);

  test("a page sharing only 'should' with the question does not answer it", async () => {
    expect(await askHandbook("What should I do if I'm sick?")).toMatchObject({ thin: true, citations: [] });
  });

  test("'when do we get paid?' is answered by the sentence saying when, not by the one saying 'get'", async () => {
    const body = await askHandbook("When do we get paid?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Staff are paid monthly on the last working day of the month.");
    expect(body.answer).not.toContain("28 days");
    // Its page's other sentences say none of the question's words, only the title does ("pay"): not quoted.
    expect(body.answer).not.toContain("Leave requests");
    expect(body.answer).not.toContain("If you are ill");
  });

  test("a plural '-ings' matches its singular: 'how much does a filling cost?' quotes the fillings' price", async () => {
    const body = await askHandbook("How much does a filling cost?");
    expect(body.answer).toContain("White fillings start at £120.");
    expect(body.citations[0].slug).toBe("fees");
  });

  test("the page holding the question's word does", async () => {
    const body = await askHandbook("What should I do if I'm ill?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("If you are ill, phone the practice manager");
  });
});

describe("hyphenated words", () => {
  test("are found and covered written as one word: 'wifi' of 'Wi-Fi', 'email' of 'e-mail', 'check in' of 'check-in'", async () => {
    const { brain } = await brainOf("Campsite", {
      Facilities: "The shower block is open all day. Wi-Fi is available near the shop only; the password is printed on your welcome pack.",
      Arrival: "Check-in opens at 14:00 and closes at 20:00. Questions before you travel go to the warden by e-mail.",
      Rules: "Dogs must stay on a lead. Campfires are allowed only in the metal fire rings.",
    });
    const wifi = await ask("Is there wifi?", brain);
    expect(wifi.thin).toBe(false);
    expect(wifi.answerMd).toContain("Wi-Fi is available near the shop only");
    expect((await ask("Can I email the warden?", brain)).answerMd).toContain("by e-mail");
    expect((await ask("When can I check in?", brain)).answerMd).toContain("Check-in opens at 14:00");
    expect(await ask("Is there a swimming pool?", brain)).toMatchObject({ thin: true });
  });
});

describe("word forms and the best page", () => {
  const HARBOUR: Record<string, string> = {
    "Oriel Anchor": "Divers found the anchor of the Oriel in 1990, half buried in sand beside the reef. It now stands outside the harbour office.",
    "Skerry Point Tower": "The tower of Skerry Point is painted in red and white bands. The color was chosen so that ships could see it in fog.",
    "Skerry Point Keepers": "Skerry Point had two keepers at a time. They kept the lamp lit from dusk to dawn and logged every ship that passed.",
    "Harbour Office": "The harbour office collects mooring fees and keeps the tide tables. It is open on weekdays.",
    "Harbour Master": "Ruth Okafor is the harbour master. Born in Cork, she studied navigation at the Nautical College in Glasgow.",
  };
  let harbour: string;
  let harbourSource: Record<string, string> = {};
  beforeAll(async () => ({ brain: harbour, sourceOf: harbourSource } = await brainOf("Harbour", HARBOUR)));

  test("an irregular verb in the question matches its other form in the page (find ↔ found)", async () => {
    const body = await ask("Where did divers find the anchor of the Oriel?", harbour);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("beside the reef");
    expect(cited(body)).toContain(harbourSource["Oriel Anchor"]);
  });

  test("a '-ied' past tense matches its verb (study ↔ studied)", async () => {
    const body = await ask("Where did Ruth Okafor study?", harbour);
    expect(body.answerMd).toContain("she studied navigation at the Nautical College in Glasgow");
    expect(cited(body)).toContain(harbourSource["Harbour Master"]);
  });

  test("a British spelling in the question matches the American one in the page (colour ↔ color)", async () => {
    const body = await ask("Why was the colour of the Skerry Point tower chosen?", harbour);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("see it in fog");
    expect(cited(body)).toContain(harbourSource["Skerry Point Tower"]);
  });
});

describe("a who-question answered by a common noun", () => {
  // The answer is "the keepers": no sentence of another page about a name in it ("Skerry") is needed.
  const ROCK: Record<string, string> = {
    "Loss of the Oriel": "The Oriel ran aground in the gale of 1881. The keepers of the Skerry lighthouse rowed out and rescued eleven of the crew.",
    "Skerry lighthouse": "The Skerry lighthouse was built in 1868 by the engineer Thomas Stevenson. A crew of three keepers kept its light burning.",
  };
  let rock: string;
  let rockSource: Record<string, string> = {};
  beforeAll(async () => ({ brain: rock, sourceOf: rockSource } = await brainOf("Rock", ROCK)));

  test("the answer quotes the rescue and is not padded with another person's sentence", async () => {
    const body = await ask("Who rescued the crew of the Oriel and how many were saved?", rock);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("rescued eleven of the crew");
    expect(body.answerMd).not.toContain("Thomas Stevenson");
    expect(cited(body)).toEqual([rockSource["Loss of the Oriel"]]);
  });
});

describe("questions that name the page's subject", () => {
  // The subject is the page's title; the sentence answering the rest of the question does not repeat it.
  const OPS: Record<string, string> = {
    "Incident 2291 postmortem":
      "On 14 March the primary database in Frankfurt became unreachable after a kernel upgrade. Tomasz Nowak promoted the replica after seven minutes. Root cause: the kernel upgrade disabled the network bonding driver.",
    "Architecture review 3 March":
      "Attendees: Dev Raman, Sofia Lindqvist, Marco Bianchi.\n\nWe will move the search service to OpenSearch by the end of June.\n\nDecisions:\n\n- The mobile app keeps using REST.\n- GraphQL is postponed to 2027.",
    "Release checklist": "Releases go out on Tuesdays.\n\nBefore tagging a release:\n\n- Run the full test suite.\n- Update the changelog.",
    "Cinder Ridge National Park":
      "The park's oldest rocks, gneiss and schist, are 1.7 billion years old. Visitors camp at Hollow Cove from October to May.",
    "Kubernetes upgrade guide":
      "Cluster upgrades happen quarterly on a Tuesday.\n\n## Before you start\n\n- Drain each node with `kubectl drain`.\n- Check that the etcd backup from the last 24 hours exists.",
  };
  let ops: string;
  let opsSource: Record<string, string> = {};
  beforeAll(async () => ({ brain: ops, sourceOf: opsSource } = await brainOf("Ops", OPS)));

  test("'what caused X?' is answered by the sentence that gives a cause, which need not say 'cause'", async () => {
    const { brain, sourceOf } = await brainOf("Incidents", {
      "Incident 3107 postmortem":
        "Tomasz Nowak promoted the replica after seven minutes. On 2 May the payments database became unreachable after a certificate expired. Support answered 140 tickets that day.",
      "Incident 3110 postmortem": "On 9 May the search cluster ran out of disk. Marco Bianchi added two nodes.",
    });
    const body = await ask("What caused incident 3107?", brain);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("became unreachable after a certificate expired");
    expect(body.answerMd).not.toContain("after seven minutes"); // a time, not a cause
    expect(cited(body)).toEqual([sourceOf["Incident 3107 postmortem"]]);
    // An incident no page names is still thin.
    expect((await ask("What caused incident 4000?", brain)).thin).toBe(true);
  });

  test("answered from the sentence holding the rest of the question", async () => {
    const cause = await ask("What caused incident 2291?", ops);
    expect(cause.thin).toBe(false);
    expect(cause.answerMd).toContain("disabled the network bonding driver");
    expect(cited(cause)).toContain(opsSource["Incident 2291 postmortem"]);
    const check = await ask("What must I check before a Kubernetes upgrade?", ops);
    expect(check.thin).toBe(false);
    expect(check.answerMd).toContain("etcd backup");
    // "Attendees" are who attended (and "employees" who are employed).
    const who = await ask("Who attended the architecture review on 3 March?", ops);
    expect(who.thin).toBe(false);
    expect(who.answerMd).toContain("Dev Raman, Sofia Lindqvist, Marco Bianchi");
    // Not padded with the page's other sentences, which hold nothing asked beyond the title.
    expect(who.answerMd).not.toContain("OpenSearch");
    // "Decisions" are what was decided: the items under that label answer.
    const decided = await ask("What did we decide at the architecture review on 3 March?", ops);
    expect(decided.thin).toBe(false);
    expect(decided.answerMd).toContain("The mobile app keeps using REST. GraphQL is postponed to 2027.");
    // The label itself is no answer: "Action items:" was quoted alone for "What are the action items?".
    expect(decided.answerMd).not.toContain("Decisions:");
    const listed = await ask("What are the decisions?", ops);
    expect(listed.answerMd).toContain("The mobile app keeps using REST.");
    expect(listed.answerMd).not.toContain("Decisions:");
    // A short paragraph ending in a colon labels the list after it as a heading would; a question the title and
    // that label name in full is answered by the items.
    const before = await ask("What do I do before tagging a release?", ops);
    expect(before.thin).toBe(false);
    expect(before.answerMd).toContain("Run the full test suite. Update the changelog.");
    expect(before.answerMd).not.toContain(":.");
    expect(cited(before)).toEqual([opsSource["Release checklist"]]);
    // "What KIND of rock" asks for a kind, which the answer names rather than says.
    const rock = await ask("What kind of rock is in Cinder Ridge National Park?", ops);
    expect(rock.thin).toBe(false);
    expect(rock.answerMd).toContain("gneiss and schist");
  });

  test("still thin when no sentence holds the rest", async () => {
    expect(await ask("Who approved incident 2291?", ops)).toMatchObject({ thin: true, citations: [] });
    expect(await ask("How much does a Kubernetes upgrade cost?", ops)).toMatchObject({ thin: true, citations: [] });
    expect(await ask("What kind of trees grow at Cinder Ridge?", ops)).toMatchObject({ thin: true, citations: [] });
    expect(await ask("What do I do before merging a hotfix?", ops)).toMatchObject({ thin: true, citations: [] });
  });
});

describe("a request for an overview of what a page's title names", () => {
  const TEAM: Record<string, string> = {
    "All-hands 12 November":
      "Lukas Weber presented the Q3 numbers: revenue grew 18% to 4.2 million EUR. The company will hire twelve engineers in 2027. The new office in Lisbon opens in February.",
    "Paper Boats (song)":
      "The folk band Tidewell wrote it in 2019, after their drummer left. Its singer says it is about a friend who carried him through a hard winter.",
    "Remote work policy":
      "Employees may work remotely up to three days a week. Working from another country is allowed for up to 20 working days a year. The company pays 400 EUR once for home office equipment.",
  };
  let team: string;
  let teamSource: Record<string, string> = {};
  beforeAll(async () => ({ brain: team, sourceOf: teamSource } = await brainOf("Team", TEAM)));

  test("answered from the page's opening sentences", async () => {
    // No sentence says "all-hands" or "happened": the page's title names the subject, its lead tells it.
    const meeting = await ask("What happened at the all-hands?", team);
    expect(meeting.thin).toBe(false);
    expect(meeting.answerMd).toContain("Lukas Weber presented the Q3 numbers");
    expect(cited(meeting)).toEqual([teamSource["All-hands 12 November"]]);
    const remote = await ask("Tell me about remote work", team);
    expect(remote.thin).toBe(false);
    expect(remote.answerMd).toContain("work remotely up to three days a week");
    // The asking words ("tell") are no part of the question: the page's next sentences are not left out for lacking them.
    expect(remote.answerMd).toContain("Working from another country is allowed for up to 20 working days a year.");
    expect(cited(remote)).toEqual([teamSource["Remote work policy"]]);
    // "What is X?" of the page titled X: its opening sentence says what it is.
    const policy = await ask("What is the remote work policy?", team);
    expect(policy.thin).toBe(false);
    expect(policy.answerMd).toContain("work remotely up to three days a week");
    // "The story behind X", "what is X about": no sentence says "story" or "about"; the lead tells it.
    for (const question of ["What is the story behind the song Paper Boats?", "What is Paper Boats about?"]) {
      const song = await ask(question, team);
      expect(song.thin).toBe(false);
      expect(song.answerMd).toContain("The folk band Tidewell wrote it in 2019");
      expect(cited(song)).toEqual([teamSource["Paper Boats (song)"]]);
    }
  });

  test("thin when no page is about the subject", async () => {
    expect(await ask("What happened at the board meeting?", team)).toMatchObject({ thin: true, citations: [] });
    expect(await ask("Tell me about the parental leave policy", team)).toMatchObject({ thin: true, citations: [] });
    expect(await ask("What is the story behind the song Harbour Lights?", team)).toMatchObject({ thin: true, citations: [] });
    expect(await ask("What is the parental leave policy?", team)).toMatchObject({ thin: true, citations: [] });
  });
});

describe("a FAQ: its questions head their answers and are never quoted as one", () => {
  const FAQ: Record<string, string> = {
    "Billing FAQ":
      "**Which payment methods do you accept?**\nVisa, Mastercard and SEPA direct debit. PayPal is not supported.\n\n**When am I charged?**\nOn the first day of each billing period.",
    "Refund FAQ": "Q: Can I get a refund? A: Yes, within 14 days of a charge, if you have not used the paid features.",
  };
  let faq: string;
  beforeAll(async () => ({ brain: faq } = await brainOf("Help center", FAQ)));

  test("answered by what follows the question", async () => {
    const methods = await ask("What payment methods are accepted?", faq);
    expect(methods.thin).toBe(false);
    expect(methods.answerMd).toContain("Visa, Mastercard and SEPA direct debit.");
    expect(methods.answerMd).not.toContain("?");
    const refund = await ask("Can I get a refund?", faq);
    expect(refund.thin).toBe(false);
    expect(refund.answerMd).toContain("within 14 days of a charge");
    expect(refund.answerMd).not.toContain("Can I get a refund?");
  });

  test("a question no answer follows stays thin", async () => {
    expect(await ask("Do you offer student discounts?", faq)).toMatchObject({ thin: true, citations: [] });
  });
});

describe("a how-to answered by a commented command", () => {
  const DOCS: Record<string, string> = {
    "Developer guide":
      "Brainbox runs on Bun.\n\n## Commands\n\n```sh\nnpm ci && npm start   # install and start the server\nnpm test              # run the whole test suite\n```\n\nThe server listens on port 8080 by default.",
    "Release notes": "Version 2 adds bulk import. The import command skips unchanged files.",
    "Tests in CI": "The CI hosts run the tests on every push to the main branch. Failed tests block the merge.",
  };
  let docs: string;
  beforeAll(async () => ({ brain: docs } = await brainOf("Docs", DOCS)));

  test("the command line is quoted with what its comment says it does", async () => {
    const body = await ask("How do I run the test suite?", docs);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("run the whole test suite: `npm test`");
    // A "how do I" is answered by a command first, before a sentence that only names the same words.
    const tests = await ask("How do I run the tests?", docs);
    expect(tests.answerMd).toStartWith("run the whole test suite: `npm test`.");
    expect(await ask("How do I rotate the signing keys?", docs)).toMatchObject({ thin: true });
  });
});

describe("similar documents", () => {
  // Six pages of one guide that share their sentences: the concept pages of what they name ("harbor master",
  // "port office") hold those sentences six times over.
  let guide: string;
  beforeAll(async () => {
    guide = await newBrain(s, "Harbor guide");
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5, 6])
      ids.push(
        (await addText(s, guide, `Harbor guide, part ${n}`, `The harbor master assigns berths each morning. Part ${n} explains the tide tables used by the pilot boats in channel ${n}. Vessels over 40 metres must book a pilot through the port office before entering the inner basin.`))
          .source.id,
      );
    for (const id of ids) await waitForSource(s, guide, id);
  });

  test("a question every page answers is answered, and the best page scores 1", async () => {
    const body = await ask("Who assigns berths?", guide);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("harbor master assigns berths");
    const vessels = await ask("What must vessels over 40 metres do?", guide);
    expect(vessels.thin).toBe(false);
    expect(vessels.answerMd).toContain("book a pilot");
    const context = await expectJson(await s.api(`/api/v1/brains/${guide}/context`, { method: "POST", json: { query: "Who assigns berths?" } }), 200);
    expect(context.thin).toBe(false);
    expect(context.pages[0].score).toBe(1);
  });
});

describe("sentence choice", () => {
  test("the sentence next to the best one joins the answer when it holds the asked-for words the best one lacks", async () => {
    const brain = await newBrain(s, "Project notes");
    const kickoff = await addText(
      s,
      brain,
      "Kickoff notes",
      "Project Atlas kicked off on 3 March 2025. Priya Natarajan leads the project and reports to the CTO, Daniel Osei. The budget is 240,000 euros.",
    );
    const bus = await addText(s, brain, "Event bus", "We chose Apache Kafka as the event bus for Atlas because the payments team already runs it.");
    await waitForSource(s, brain, kickoff.source.id);
    await waitForSource(s, brain, bus.source.id);
    const body = await ask("Who leads Project Atlas?", brain);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("Priya Natarajan leads the project");
    expect(cited(body)).toEqual([kickoff.source.id]);
  });
});

describe("context limit", () => {
  const context = (path: string, json: unknown) => s.api(path, { method: "POST", json });

  for (const [surface, path] of [["v1", "/api/v1/brains/:id/context"], ["unversioned", "/api/brains/:id/context"]] as const) {
    test(`${surface}: at most \`limit\` pages, best first, each with a score; default 5`, async () => {
      const url = path.replace(":id", brainId);
      const query = "keepers lighthouse reef crew boat sea harbour school church path market telescope";
      const wide = await expectJson(await context(url, { query, limit: 8 }), 200);
      expect(wide.pages.length).toBe(8);
      const scores = wide.pages.map((p: any) => p.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores[0]).toBe(1);
      for (const score of scores) expect(score).toBeGreaterThan(0);
      const one = await expectJson(await context(url, { query, limit: 1 }), 200);
      expect(one.pages).toEqual([wide.pages[0]]);
      expect((await expectJson(await context(url, { query }), 200)).pages).toEqual(wide.pages.slice(0, 5));
      const text = surface === "v1" ? one.context : one.contextText;
      expect(text.match(/^# /gm)).toHaveLength(1);
    });

    test(`${surface}: a bad limit is 422 naming the field`, async () => {
      const url = path.replace(":id", brainId);
      for (const limit of [0, 51, -1, 2.5, "five", null, [3]]) {
        const body = await expectJson(await context(url, { query: "telescope", limit }), 422);
        expect(body.error).toMatchObject({ code: "invalid_request", field: "limit", message: "limit: must be an integer from 1 to 50" });
      }
    });
  }

  describe("over MCP", () => {
    let mcp: McpSession;
    beforeAll(async () => {
      mcp = await connectMcp(s.url, s.key);
    });
    afterAll(() => mcp.close());

    test("get_context takes the same limit and returns the same pages as HTTP", async () => {
      const query = "keepers lighthouse reef crew boat";
      const r = await mcp.call("get_context", { brainId, query, limit: 2 });
      expect(r.structuredContent.pages).toHaveLength(2);
      const http = await expectJson(await context(`/api/v1/brains/${brainId}/context`, { query, limit: 2 }), 200);
      expect(r.structuredContent).toEqual(http);
      for (const limit of [0, 51, 1.5]) expect((await mcp.call("get_context", { brainId, query, limit })).isError).toBe(true);
    });
  });
});
