// A page written one way and a question asked the other: British and American spelling ("colour" ↔
// color, "centre" ↔ center, "organisation" ↔ organization) and the short forms of technical writing
// ("config" ↔ configuration, "max" ↔ maximum). The rules are checked on words, then over HTTP on pages
// the test writes, for the fact and the page cited.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { termVariants } from "../../src/retrieval";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const variantsOf = (word: string) => termVariants([word]).map((v) => v.variant);

describe("the other ways a word is written", () => {
  test("British and American spellings, both ways, with their inflections", () => {
    const pairs: [string, string][] = [
      ["colour", "color"],
      ["coloured", "colored"],
      ["favourite", "favorite"],
      ["behaviour", "behavior"],
      ["centre", "center"],
      ["centred", "centered"],
      ["kilometres", "kilometers"],
      ["theatre", "theater"],
      ["organise", "organize"],
      ["organisation", "organization"],
      ["virtualisation", "virtualization"],
      ["analyse", "analyze"],
      ["licence", "license"],
      ["defence", "defense"],
      ["catalogue", "catalog"],
      ["travelled", "traveled"],
      ["cancelled", "canceled"],
      ["labelling", "labeling"],
      ["grey", "gray"],
      ["programme", "program"],
      ["paediatric", "pediatric"],
    ];
    for (const [uk, us] of pairs) {
      expect(variantsOf(uk)).toContain(us);
      expect(variantsOf(us)).toContain(uk);
    }
  });

  test("short forms and what they stand for", () => {
    expect(variantsOf("config")).toEqual(["configuration", "configure"]);
    expect(variantsOf("configuration")).toEqual(["config"]);
    expect(variantsOf("maximum")).toEqual(["max"]);
    expect(variantsOf("repo")).toEqual(["repository"]);
    expect(variantsOf("docs")).toContain("documentation");
  });

  test("an initialism and its phrase, both ways", () => {
    expect(variantsOf("ceo")).toEqual(["chief executive"]);
    expect(variantsOf("sso")).toEqual(["single sign on"]);
    expect(termVariants(["chief", "executive", "northwind"])).toEqual([
      { term: "chief", variant: "ceo" },
      { term: "executive", variant: "ceo" },
    ]);
    // The phrase's words as a question's terms are (stopwords gone): "estimated time of arrival".
    expect(termVariants(["estimated", "time", "arrival"]).map((v) => v.variant)).toEqual(["eta", "eta", "eta"]);
    // Words of the phrase apart are no initialism.
    expect(termVariants(["executive", "chief"])).toEqual([]);
  });

  test("words that only look like another spelling are left alone", () => {
    // "four" is not "for", "hour" not "hor", "timber" not "timbre", "check" not "cheque", "tire" not "tyre".
    for (const word of ["four", "hour", "tour", "flour", "your", "timber", "timbre", "acre", "check", "tire", "water", "number", "prize", "size", "exercise", "doctor", "error", "major", "level", "feeling", "shoes", "goes", "minute", "min", "ref"]) {
      expect({ word, variants: variantsOf(word) }).toEqual({ word, variants: [] });
    }
  });

  test("a term written both ways in the question gets no variant of itself", () => {
    expect(termVariants(["colour", "color"])).toEqual([]);
  });
});

// Most variants' pages have a rival that matches the question's other words as often or more: without
// the variants, the theater question is thin and the config, max and organization ones rank the rival first.
const HANDBOOK: Record<string, string> = {
  "Office guide":
    "The visitor desk is on the ground floor, next to the lecture theatre. Parking behind the building is free after six in the evening.",
  "Colour printing": "Colour prints are released by Dana Reyes on the second floor.",
  Printing: "Prints are released at the front desk. Prints are released twice a day.",
  Settings: "The configuration file lives at /etc/gateway/gateway.yaml and is read once at start.",
  "File storage": "Uploaded files are kept in the data directory. Each file keeps its original file name.",
  Uploads: "The maximum body size is 25 MB; anything larger is refused with status 413.",
  "Upload size": "Each upload shows its upload size and its body while the upload runs.",
  "Holiday allowance": "Every employee of the organisation gets 28 days of paid leave a year, bank holidays included.",
  "Public holidays": "The office closes on public holidays. Holidays in Scotland differ from holidays in England.",
  Leadership: "Elena Vasquez is the chief executive of Northwind. Our human resources team is run by Omar Haddad.",
  "Quarterly results": "Our CFO, Lars Berg, presents the quarterly results to the staff.",
};

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Handbook, written one way");
  const ids = [];
  for (const [title, content] of Object.entries(HANDBOOK)) ids.push((await addText(s, brainId, title, content)).source.id);
  for (const id of ids) await waitForSource(s, brainId, id);
});
afterAll(() => s.close());

const ask = async (question: string) => expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);
const context = async (query: string) => expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query, limit: 3 } }), 200);

describe("asked one way, written the other (over HTTP)", () => {
  test("an American question over a British page: the theater", async () => {
    const body = await ask("Where is the theater?");
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("next to the lecture theatre");
    expect(body.citations[0].title).toBe("Office guide");
  });

  test("color prints: answered from the page that writes colour", async () => {
    const body = await ask("Who releases color prints?");
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("Dana Reyes");
    expect(body.citations[0].title).toBe("Colour printing");
  });

  test("a short form finds the long one: config ↔ configuration", async () => {
    expect((await context("config file location")).pages[0].title).toBe("Settings");
    const body = await ask("Where is the config file?");
    expect(body.answerMd).toContain("/etc/gateway/gateway.yaml");
  });

  test("max ↔ maximum", async () => {
    expect((await context("max upload size")).pages[0].title).toBe("Uploads");
    const body = await ask("What is the max body size?");
    expect(body.answerMd).toContain("25 MB");
  });

  test("organization ↔ organisation in /context", async () => {
    expect((await context("organization holidays")).pages[0].title).toBe("Holiday allowance");
  });

  test("an initialism finds its phrase and the phrase its initialism: 'Who is the CEO?', 'Who runs HR?'", async () => {
    const ceo = await ask("Who is the CEO?");
    expect(ceo.thin).toBe(false);
    expect(ceo.answerMd).toContain("Elena Vasquez is the chief executive of Northwind.");
    expect((await ask("Who runs HR?")).answerMd).toContain("human resources team is run by Omar Haddad");
    expect((await ask("Who is the chief financial officer?")).answerMd).toContain("Our CFO, Lars Berg");
  });

  test("a word with no other spelling is not matched to a look-alike: no page answers", async () => {
    const body = await ask("What timbre does the lecture hall's organ have?");
    expect(body.thin).toBe(true);
  });
});
