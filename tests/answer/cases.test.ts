// Answer cases as tables (tests/answer/cases/): each table's pages in a brain of their own, all on one server
// started in this process; each case asks its question over the v1 surface and checks what the answer must
// and must not hold.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server";
import { addText, askBrain, newBrain, waitForSource } from "../support/sources";
import { BACKTRACKED_CHAINS, CHAINS, COMPOSED_CHAINS, LOOSE_CHAINS } from "./cases/chains";
import { ONE_PAGE, SHAPES, TWO_PART } from "./cases/shapes";
import { ONE_PERSON, YES_NO } from "./cases/yes-no";
import { API_REFERENCE_TABLE } from "./cases/api-reference";
import { BENEFITS_TABLE } from "./cases/benefits";
import { BIOGRAPHY_TABLE } from "./cases/biography";
import { BOOK_CLUB_TABLE } from "./cases/book-club";
import { COWORKING_TABLE } from "./cases/coworking";
import { FIELD_TRIALS_TABLE } from "./cases/field-trials";
import { GARDEN_TABLE } from "./cases/garden";
import { HANDBOOK_TABLE } from "./cases/handbook";
import { HOMELAB_TABLE } from "./cases/homelab";
import { LEASE_TABLE } from "./cases/lease";
import { LOCAL_HISTORY_TABLE } from "./cases/local-history";
import { MEASURES_TABLE } from "./cases/measures";
import { MEETING_NOTES_TABLE } from "./cases/meeting-notes";
import { ONBOARDING_TABLE } from "./cases/onboarding";
import { POSTMORTEM_TABLE } from "./cases/postmortem";
import { PRICING_TABLE_TABLE } from "./cases/pricing-table";
import { PRODUCT_SPECS_TABLE } from "./cases/product-specs";
import { RECIPES_TABLE } from "./cases/recipes";
import { RESIDENTS_ASSOCIATION_TABLE } from "./cases/residents-association";
import { RESTAURANT_TABLE } from "./cases/restaurant";
import { ROADMAP_TABLE } from "./cases/roadmap";
import { SPORTS_CLUB_TABLE } from "./cases/sports-club";
import { TEAM_NOTES_TABLE } from "./cases/team-notes";
import { TOOL_DOCS_TABLE } from "./cases/tool-docs";
import { ACCOUNTS_TABLE, COMPANY_WIKI_TABLE } from "./cases/company-wiki";
import { CHANGELOG_TABLE, RELEASES_TABLE } from "./cases/changelog";
import { GERMAN_HANDBOOK_TABLE } from "./cases/german-handbook";
import { HOSTLY_LEGAL_TABLE } from "./cases/hostly-legal";
import { IT_HELPDESK_TABLE } from "./cases/it-helpdesk";
import { BIKE_SHOP_TABLE, ITINERARY_TABLE } from "./cases/itinerary";
import { CLINIC_TABLE, OPS_TABLE } from "./cases/ops";
import { PARCELWISE_TABLE } from "./cases/parcelwise";
import { POLICIES_TABLE } from "./cases/policies";
import { HOMELAB_RECORDS_TABLE, ORDERS_TEAM_TABLE } from "./cases/records";
import { RUNBOOKS_TABLE } from "./cases/runbooks";
import { CAFE_TABLE, MENU_TABLE, SCHOOL_TABLE } from "./cases/school";
import { SUPERLATIVES_TABLE } from "./cases/superlatives";
import { SYLLABUS_TABLE } from "./cases/syllabus";
import { PRACTICE_TABLE, PRODUCT_CHANGELOG_TABLE } from "./cases/typed-answers";
import type { AnswerCase, AnswerTable } from "./cases/table";

export const TABLES: AnswerTable[] = [SHAPES, ONE_PAGE, TWO_PART, YES_NO, ONE_PERSON, CHAINS, LOOSE_CHAINS, COMPOSED_CHAINS, BACKTRACKED_CHAINS, API_REFERENCE_TABLE, BENEFITS_TABLE, BIOGRAPHY_TABLE, BOOK_CLUB_TABLE, COWORKING_TABLE, FIELD_TRIALS_TABLE, GARDEN_TABLE, HANDBOOK_TABLE, HOMELAB_TABLE, LEASE_TABLE, LOCAL_HISTORY_TABLE, MEASURES_TABLE, MEETING_NOTES_TABLE, ONBOARDING_TABLE, POSTMORTEM_TABLE, PRICING_TABLE_TABLE, PRODUCT_SPECS_TABLE, RECIPES_TABLE, RESIDENTS_ASSOCIATION_TABLE, RESTAURANT_TABLE, ROADMAP_TABLE, SPORTS_CLUB_TABLE, TEAM_NOTES_TABLE, TOOL_DOCS_TABLE,
  ACCOUNTS_TABLE, HOSTLY_LEGAL_TABLE, COMPANY_WIKI_TABLE, CHANGELOG_TABLE, RELEASES_TABLE, GERMAN_HANDBOOK_TABLE, IT_HELPDESK_TABLE, BIKE_SHOP_TABLE, ITINERARY_TABLE, CLINIC_TABLE, OPS_TABLE, PARCELWISE_TABLE, POLICIES_TABLE, HOMELAB_RECORDS_TABLE, ORDERS_TEAM_TABLE, RUNBOOKS_TABLE, CAFE_TABLE, MENU_TABLE, SCHOOL_TABLE, SUPERLATIVES_TABLE, SYLLABUS_TABLE, PRACTICE_TABLE, PRODUCT_CHANGELOG_TABLE];

let s: TestServer;
const brains = new Map<string, string>();

beforeAll(async () => {
  s = await startTestServer();
  // Every table's pages are posted before any is waited for, so the job loop works through them without a pause.
  const posted = new Map<string, Record<string, string>>();
  for (const table of TABLES) {
    const id = await newBrain(s, table.brain);
    brains.set(table.brain, id);
    const ids: Record<string, string> = {};
    for (const [title, content] of Object.entries(table.pages)) ids[title] = (await addText(s, id, title, content)).source.id;
    posted.set(id, ids);
  }
  for (const [brainId, ids] of posted) for (const id of Object.values(ids)) expect((await waitForSource(s, brainId, id)).status).toBe("ready");
});
afterAll(() => s.close());

test("every table has a brain of its own", () => {
  const names = TABLES.map((table) => table.brain);
  expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
});

function check(c: AnswerCase, body: { answer: string; thin: boolean; citations: { slug: string }[] }) {
  if (c.thin !== undefined) expect(body.thin).toBe(c.thin);
  if (c.startsWith !== undefined) expect(body.answer.slice(0, c.startsWith.length)).toBe(c.startsWith);
  for (const want of c.contains ?? []) typeof want === "string" ? expect(body.answer).toContain(want) : expect(body.answer).toMatch(want);
  for (const unwanted of c.excludes ?? []) typeof unwanted === "string" ? expect(body.answer).not.toContain(unwanted) : expect(body.answer).not.toMatch(unwanted);
  if (c.cites) expect(body.citations.map((x) => x.slug)).toEqual(expect.arrayContaining(c.cites));
  if (c.lines) expect(body.answer.split("\n").map((line) => line.replace(/\s*\[.*$/, ""))).toEqual(c.lines);
  if (c.citesExactly) expect(body.citations.map((x) => x.slug)).toEqual(c.citesExactly);
  if (c.firstCited) expect(body.citations[0]?.slug).toBe(c.firstCited);
}

for (const table of TABLES) {
  describe(table.brain, () => {
    for (const c of table.cases) test(c.name ?? c.question, async () => check(c, await askBrain(s, brains.get(table.brain)!, c.question)));
  });
}
