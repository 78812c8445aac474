// A brain of runbooks, team pages and incident reviews: Markdown with headings, lists, tables and inline code,
// the common shape of a team's knowledge base. Answers quote one list item or table row, never a heading or
// a run of items; concept pages quote them the same way; names inside code are not concepts; a lead goes
// under the page's opening title. Pages are written by the test; answers are checked for the fact.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, askBrain, newBrain } from "../support/sources";

const SOURCES: Record<string, string> = {
  "Deploying Ledgerline": `# Deploying Ledgerline

Ledgerline is our billing service. It runs on Kubernetes in the \`prod-eu\` cluster and is owned by the Payments team.

## Prerequisites

- Access to the \`ledgerline\` namespace
- A Vault token with the \`billing-deploy\` policy
- kubectl 1.29 or newer

## Steps

1. Tag the release with \`git tag\`.
2. Run \`helm upgrade Ledgerchart ./chart\`.`,
  "Payments team": `# Payments team

The Payments team owns Ledgerline and the invoice generator.

| Role | Person |
|---|---|
| Engineering manager | Ines Carvalho |
| Tech lead | Oskar Nyberg |

Oskar Nyberg approves all schema migrations for Ledgerline.`,
  "Duplicate invoices": `# Incident review: duplicate invoices

Ines Carvalho declared an incident at 08:05 after support reported duplicates. About 3,200 customers received duplicate invoices. The invoice generator retried a batch after a timeout, and the idempotency key was not checked.

## Actions

- Oskar Nyberg added an idempotency check to the invoice generator
- Support refunded every second charge within two days`,
  "Gateway settings": `# Gateway settings

| Setting | Default | Meaning |
|---|---|---|
| read_timeout | 30s | how long a request body may take |
| idle_timeout | 120s | how long a keep-alive connection may idle |
| upstream_timeout | 10s | how long an upstream may take to answer (per attempt) |`,
};

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Runbooks");
  await addTextsReady(s, brainId, SOURCES);
});
afterAll(() => s.close());

/** Asks `brain` (the runbooks brain unless given) over /api/v1. */
const ask = (question: string, brain = brainId) => askBrain(s, brain, question);
const page = async (slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;

describe("answers from lists and tables", () => {
  test("a table row is quoted as one sentence, header by cell", async () => {
    const body = await ask("Who is the engineering manager of the Payments team?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Role: Engineering manager; Person: Ines Carvalho.");
    expect(body.answer).not.toContain("|");
    expect(body.answer).not.toContain("Tech lead");
  });

  test("a table's headers are what its cells are, not words every row says", async () => {
    // The row that holds what is asked, alone: the other timeouts' rows share only "timeout" and a header.
    const body = await ask("What is the default read timeout?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Setting: read_timeout; Default: 30s");
    expect(body.answer).not.toContain("idle_timeout");
    // A setting the table does not list is thin: the "Default" header alone answered with every row.
    // ("retry count" is no longer one of them: the incident page's "retried a batch" now matches "retry".)
    for (const question of ["What is the default buffer size?", "What is the default log level?"]) expect((await ask(question)).thin).toBe(true);
    // Asked for all of them, all rows answer.
    const all = await ask("What are the gateway timeouts?");
    for (const setting of ["read_timeout", "idle_timeout", "upstream_timeout"]) expect(all.answer).toContain(setting);
    // A row ending in a bracket still ends with a stop: the next row does not run into it.
    expect(all.answer).toContain("(per attempt).");
  });

  test("a row under a 'default' header answers 'the default port' ahead of a sentence saying both words in passing", async () => {
    const docs = await newBrain(s, "Ledger docs");
    await addTextsReady(s, docs, {
      "Server configuration": "# Server configuration\n\n| variable | default | meaning |\n|---|---|---|\n| LEDGER_HOST | 127.0.0.1 | interface to listen on |\n| LEDGER_PORT | 8080 | port; 0 picks a free one |",
      "Ledger CLI": "The import command posts to --url (default $LEDGER_URL, else http://127.0.0.1:$LEDGER_PORT) with --key.",
    });
    const port = await ask("What is the default port?", docs);
    expect(port.answer.startsWith("variable: LEDGER_PORT; default: 8080")).toBe(true);
    expect(port.citations[0].title).toBe("Server configuration");
  });

  test("release notes: 'what changed in 4.2?' is answered by the release's page; a version number is one term", async () => {
    const docs = await newBrain(s, "Gateway releases");
    await addTextsReady(s, docs, {
      "Gateway release 4.2": "Release 4.2 adds HTTP/3 support and drops Ubuntu 20.04. Upgrading from 4.1 needs no config changes.",
      "Gateway TLS": "TLS 1.2 and 1.3 are supported; TLS 1.0 and 1.1 are refused. Certificates are reloaded every 12 hours.",
    });
    // "What changed in X" asks for an overview of X: its page's opening sentence, not the one that says "changes".
    for (const question of ["What changed in 4.2?", "What's new in 4.2?"]) {
      const body = await ask(question, docs);
      expect(body.answer.startsWith("Release 4.2 adds HTTP/3 support")).toBe(true);
    }
    // "5.0" is no "0" of "TLS 1.0": no page says anything of 5.0.
    expect((await ask("What changed in 5.0?", docs)).thin).toBe(true);
    expect((await ask("Is TLS 1.0 allowed?", docs)).answer).toContain("TLS 1.0 and 1.1 are refused");
  });

  test("'who is X?' is answered from the section headed X, ahead of a sentence naming X in passing", async () => {
    const team = await newBrain(s, "Team pages");
    await addTextsReady(s, team, {
      "Platform team": "# Platform team\n\nThe platform team runs the clusters.\n\n## Maria Okafor\n\nHead of platform. She approves production changes.\n\n## Tomas Becker\n\nSite reliability engineer.",
      "On-call guide": "The on-call engineer is paged first. Escalate to Maria Okafor after 30 minutes.",
    });
    const body = await ask("Who is Maria Okafor?", team);
    expect(body.answer.startsWith("Head of platform. She approves production changes.")).toBe(true);
    expect(body.citations[0].title).toBe("Platform team");
  });

  test("a list item is quoted alone, not run into the items around it", async () => {
    const body = await ask("Which kubectl version is needed?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("kubectl 1.29 or newer.");
    expect(body.answer).not.toContain("namespace A Vault");
    expect(body.answer).not.toContain("Prerequisites");
  });

  test("a heading is never an answer sentence", async () => {
    const body = await ask("How do I deploy Ledgerline?");
    expect(body.answer).not.toMatch(/^Deploying Ledgerline\./);
    expect(body.citations.map((c: any) => c.slug)).toContain("deploying-ledgerline");
  });
});

describe("the wiki of structured pages", () => {
  test("concept pages quote a row or an item, not the table or list; table headers are not concepts", async () => {
    const ines = await page("ines-carvalho");
    expect(ines.markdown).toContain("Role: Engineering manager; Person: Ines Carvalho");
    expect(ines.markdown).not.toContain("Tech lead");
    const oskar = await page("oskar-nyberg");
    expect(oskar.markdown).toContain("- Oskar Nyberg added an idempotency check to the invoice generator (");
    expect(oskar.markdown).not.toContain("Support refunded");
    for (const header of ["role", "person"]) expect((await s.api(`/api/v1/brains/${brainId}/pages/${header}`)).status).toBe(404);
  });

  test("a capitalized word inside inline code is not a concept", async () => {
    const concepts = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=concept&limit=100`), 200)).pages.map((p: any) => p.slug);
    expect(concepts).toContain("ledgerline");
    expect(concepts).not.toContain("ledgerchart");
  });

  test("the lead goes under the page's opening title", async () => {
    const incident = await page("duplicate-invoices");
    expect(incident.markdown.startsWith("# Incident review: duplicate invoices\n\n")).toBe(true);
    const lead = incident.markdown.split("\n\n")[1]!;
    expect(lead).toContain("invoice");
    expect(lead).not.toStartWith("Ines Carvalho declared"); // the opening sentence is not repeated as its lead
  });
});

describe("questions listed under a heading", () => {
  test("are the answer to a question naming the heading ('What are the open questions?'), never to their own words", async () => {
    const brain = await newBrain(s, "Syncs");
    await addTextsReady(s, brain, {
      "Product sync, 17 March":
        "# Product sync, 17 March\n\nBen finished the migration guide.\n\n## Decisions\n\n- Annual plans get a 15% discount.\n\n" +
        "## Open questions\n\n- Do we keep the legacy API for customers on the Starter plan?",
    });
    const open = await ask("What are the open questions?", brain);
    expect(open.thin).toBe(false);
    expect(open.answer).toContain("Do we keep the legacy API for customers on the Starter plan?");
    // Asked in its own words, the listed question is still no answer.
    expect(await ask("Do we keep the legacy API for Starter customers?", brain)).toMatchObject({ thin: true });
    // "Made" is a word the question asks with: the items under "Decisions" answer it.
    expect((await ask("What decisions were made?", brain)).answer).toContain("Annual plans get a 15% discount.");
  });
});

describe("code in a sentence", () => {
  test("is quoted as written: a placeholder in angle brackets is no tag to drop, emphasis marks in it stay", async () => {
    const brain = await newBrain(s, "Failover");
    await addTextsReady(s, brain, {
      "On-call runbook":
        "## Database failover\n\nIf the primary database in a region fails, promote the most up-to-date replica with `orbitctl db promote --region <region>`. " +
        "Old logs match `*_old.log` and can go.",
    });
    const failover = await ask("How do I promote a replica?", brain);
    expect(failover.answer).toContain("`orbitctl db promote --region <region>`");
    expect((await ask("Which logs can go?", brain)).answer).toContain("`*_old.log`");
  });
});

describe("two-word phrases written as one word", () => {
  test("'roll back' finds and answers from the page that says 'rollback'", async () => {
    const brain = await newBrain(s, "Rollbacks");
    await addTextsReady(s, brain, {
      "Release notes": "Releases go out on Tuesdays after the freeze. Every release is announced in the changelog channel.",
      Recovery: "# Recovery\n\n## Rollback\n\nIf error rates rise above 2 percent, run `helm rollback ledgerline` and tell the on-call engineer.",
    });
    const body = await ask("How do I roll back a release?", brain);
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("run `helm rollback ledgerline`");
    expect(body.citations.map((c: any) => c.slug)).toContain("recovery");
  });

  test("two question words, in either order, match the one word a page writes them as ('shoes on horses' / horseshoes)", async () => {
    const brain = await newBrain(s, "Stables");
    await addTextsReady(s, brain, {
      Farriery: "Farriers trim the hooves and fit the iron. Bronze horseshoes with nail holes were found in a tomb dated to 400 BC.",
      "Stable yard": "The stable yard holds twelve stalls and a tack room. Hay is delivered on Mondays.",
    });
    const body = await ask("When did people start putting shoes on horses?", brain);
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Bronze horseshoes with nail holes");
    expect(body.citations.map((c: any) => c.slug)).toContain("farriery");
  });

  test("the phrase's joined form is found only for letters, never for a stopword pair", async () => {
    const { joinedPairs } = await import("../../src/retrieval/terms");
    expect(joinedPairs("How do I roll back and log in?").map((p) => p.joined)).toEqual(["rollback", "login"]);
    expect(joinedPairs("what is the main road of it").map((p) => p.joined)).toEqual(["mainroad"]);
    expect(joinedPairs("is it 2 x").map((p) => p.joined)).toEqual([]);
    expect(joinedPairs("in rawl's theory, don't").map((p) => p.joined)).toEqual([]); // a possessive or contraction is no word
    expect(joinedPairs("東京 タワー")).toEqual([]);
    const { reversedCompounds } = await import("../../src/retrieval/terms");
    expect(reversedCompounds(["shoes", "horses"]).map((p) => p.joined)).toEqual(["horseshoes"]);
    expect(reversedCompounds(["ox", "cart", "1920", "wheel"]).map((p) => p.joined)).toEqual([]); // short words and numbers join nothing
  });

  test("a compound is split into its verb and particle only when the verb is a common word", async () => {
    const { splitCompounds } = await import("../../src/retrieval/terms");
    expect(splitCompounds(["backups", "shutdown", "failover", "checkout"]).map((c) => c.parts.join(" "))).toEqual(["back up", "shut down", "fail over", "check out"]);
    // "disc" is rare, "with" no verb, "cabin" and "season" end in particles that are not split, "up" is too short a word.
    expect(splitCompounds(["discover", "without", "cabin", "season", "setup2", "up"])).toEqual([]);
  });
});

describe("escaped Markdown", () => {
  test("an identifier a converter escaped (sales\\_nightly) is quoted as written, never as a broken escape", async () => {
    const brain = await newBrain(s, "Loads");
    await addTextsReady(s, brain, {
      "Stuck loads": "# Restarting a stuck load\n\nCheck the Airflow DAG named sales\\_nightly and clear the **failed** task.\n\nThe job_id is in the alert.",
    });
    const body = await ask("Which Airflow DAG do I check?", brain);
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Check the Airflow DAG named sales_nightly and clear the failed task.");
    expect(body.answer).not.toContain("\\");
  });
});

describe("procedures", () => {
  test("a 'how do I' question answered by a numbered list gets its steps, in order, cited once", async () => {
    const body = await ask("How do I deploy Ledgerline?");
    expect(body.thin).toBe(false);
    const lines = body.answer.split("\n");
    expect(lines[0]).toBe("1. Tag the release with `git tag`.");
    expect(lines[1]).toStartWith("2. Run `helm upgrade Ledgerchart ./chart`.");
    expect(lines[1]).toContain("/pages/deploying-ledgerline)");
    expect(body.citations.map((c: any) => c.slug)).toEqual(["deploying-ledgerline"]);
    // "What do I do …" asks what to do: the same steps, whole and in order (were the best two, unnumbered).
    const what = await ask("What do I do to deploy Ledgerline?");
    expect(what.answer.split("\n")[0]).toBe("1. Tag the release with `git tag`.");
    expect(what.answer).toContain("2. Run `helm upgrade Ledgerchart ./chart`.");
  });

  test("a question that asks no procedure is answered by sentences, and a bulleted list is no procedure", async () => {
    expect((await ask("Which kubectl version is needed?")).answer).not.toMatch(/^1\. /);
    expect((await ask("How do I get access to the ledgerline namespace?")).answer).not.toMatch(/^1\. /);
  });
});
