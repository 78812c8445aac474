// The lead of a concept page without a model: the mention sentence that best defines the concept.
import { expect, test } from "bun:test";
import { conceptLead, type MentionRow } from "../../src/concepts/concept-page";

const mention = (sentence: string, surface = "Priya Natarajan"): MentionRow => ({ sourceId: "s", pageSlug: "p", pageTitle: "P", surface, sentence });

test("a sentence that opens with the name leads, before one naming it a few words in", () => {
  const lead = conceptLead([
    mention("Ask Priya Natarajan in the release channel before any Friday deploy."),
    mention("Priya Natarajan leads the team that owns the payments service."),
  ]);
  expect(lead?.sentence).toBe("Priya Natarajan leads the team that owns the payments service.");
});

test("a definition (\"<name> was a ...\") leads, also after an article; an earlier sentence wins a tie", () => {
  const surface = "Marren workshop";
  expect(
    conceptLead([
      mention("She trained at the Marren workshop under Tobias Wren before designing lighthouses.", surface),
      mention("The Marren workshop was an engineering firm in Dunmore founded by Tobias Wren.", surface),
    ])?.sentence,
  ).toBe("The Marren workshop was an engineering firm in Dunmore founded by Tobias Wren.");
  const tie = [mention("Priya Natarajan owns the rollback decision today."), mention("Priya Natarajan reviews every Friday deploy.")];
  expect(conceptLead(tie)?.sentence).toBe("Priya Natarajan owns the rollback decision today.");
  expect(conceptLead([])).toBeUndefined();
});

test("a role in apposition defines the name: it leads over a sentence that only opens with it", () => {
  const surface = "Owen Blake";
  expect(
    conceptLead([
      mention("Owen Blake said the Toronto team grew to 18 people.", surface),
      mention("The Toronto office is the newest and is run by Priya Natarajan's deputy, Owen Blake.", surface),
    ])?.sentence,
  ).toBe("The Toronto office is the newest and is run by Priya Natarajan's deputy, Owen Blake.");
  expect(
    conceptLead([mention("Owen Blake said the team grew.", surface), mention("In May, Owen Blake, the Toronto lead, opened the office.", surface)])?.sentence,
  ).toBe("In May, Owen Blake, the Toronto lead, opened the office.");
  // A comma before the name that closes a clause is no apposition ("In May, Owen Blake said").
  expect(conceptLead([mention("Owen Blake is a designer.", surface), mention("In May, Owen Blake said the team grew.", surface)])?.sentence).toBe("Owen Blake is a designer.");
});

test("a table row of three cells or more is a record: a sentence naming the concept leads before it", () => {
  const surface = "Okta";
  expect(
    conceptLead([mention("28 August; 15 minutes; Login failures; Misconfigured Okta connection.", surface), mention("Single sign-on with Okta and Azure AD.", surface)])
      ?.sentence,
  ).toBe("Single sign-on with Okta and Azure AD.");
});

test("a concept named only in table rows is led by its first row, not left without a lead", () => {
  // Was no lead at all: every row of three cells scored below the starting bar.
  const rows = [mention("Day: Thursday; Chef: Aisha; Front of house: Sam.", "Aisha"), mention("Day: Friday; Chef: Aisha; Front of house: Giulia.", "Aisha")];
  expect(conceptLead(rows)?.sentence).toBe("Day: Thursday; Chef: Aisha; Front of house: Sam.");
});
