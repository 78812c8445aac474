// A worker thread that extracts concepts (the NLP library's tagging, the CPU-heavy part of ingesting a
// source) for the pool in extract-pool.ts. One message in, one out; nothing is shared. With a lookup it also
// reads what the brain knows of them (facts.ts) through its own read-only connection to the database file,
// so the thread that writes does not spend its time on those index probes; the same connection links a new
// source's pages to the titles they name (ingest/outward-links.ts, with this thread's own title index) and
// finds the pages that name a new page's title (ingest/inward-links.ts, ruling titles out with this thread's
// word pairs of the brain's pages first).
import Database from "libsql";
import { findLateLinks, type InwardLink } from "../links/inward-links";
import { linkOutward } from "../links/outward-links";
import { TitleIndex } from "../links/title-index";
import { BodyBigrams } from "../links/body-bigrams";
import type { ReadRows } from "../db/read-rows";
import { extractConcepts, type ExtractedConcept, type PageText } from "./extract";
import { conceptFacts, type ConceptFacts } from "./facts";
import { KnownConceptSlugs } from "./known-keys";
import { warmUpExtraction } from "./warm-up";

declare const self: Worker;

export interface ConceptLookup {
  /** The embedded database file. */
  file: string;
  brainId: string;
  sourceId: string;
  ownSlugs: string[];
  /** Also link the pages to the titles they name (not for notes). */
  outward: boolean;
}

export interface InwardLookup {
  /** The embedded database file. */
  file: string;
  brainId: string;
  sourceId: string;
  /** The source's pages, committed. */
  pages: { slug: string; title: string; markdown?: string }[];
  /** The last page id the source's outward links looked at (findLateLinks); none for a note. */
  outwardSeen?: number;
}

export type Task = { kind: "extract"; pages: PageText[]; docTitle: string; lookup?: ConceptLookup } | { kind: "inward"; lookup: InwardLookup };

/** `facts` and `inward`: null when the read failed here (the caller reads them). */
export interface Answer {
  concepts?: ExtractedConcept[];
  facts?: ConceptFacts | null;
  /** The pages' markdown linked to the titles they name (asked with `outward`); null when the read failed here. */
  markdowns?: string[] | null;
  /** With `markdowns`: the last page id whose title was looked at. */
  outwardSeen?: number;
  inward?: InwardLink[] | null;
}

type Statement = ReturnType<InstanceType<typeof Database>["prepare"]>;
let reader: { file: string; db: InstanceType<typeof Database>; read: ReadRows; titles: TitleIndex; pairs: BodyBigrams; known: KnownConceptSlugs } | null = null;

function connect(file: string) {
  if (reader?.file !== file) {
    reader?.db.close();
    const db = new Database(file, { readonly: true, timeout: 5000 } as ConstructorParameters<typeof Database>[1]);
    const statements = new Map<string, Statement>();
    const read = (sql: string, args: (string | number)[]) => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare(sql)));
      return statement.all(args) as Record<string, unknown>[];
    };
    reader = { file, db, read, titles: new TitleIndex(read), pairs: new BodyBigrams(read), known: new KnownConceptSlugs(read) };
  }
  return reader;
}
const read = (file: string) => connect(file).read;

/** The pages as linkOutward leaves them: the index reads the pages committed since its last look first. */
async function outwardMarkdowns(file: string, brainId: string, sourceId: string, pages: PageText[]): Promise<{ markdowns: string[]; seen: number }> {
  const { titles } = connect(file);
  titles.touch();
  const linked = await linkOutward(titles, brainId, sourceId, pages);
  return { markdowns: linked.pages.map((p) => p.markdown), seen: linked.seen };
}

/** What `reads` gives, or null when it fails (the caller reads it; the next read reconnects). */
async function tryRead<T>(reads: () => Promise<T>): Promise<T | null> {
  try {
    return await reads();
  } catch {
    try {
      reader?.db.close();
    } catch {
      // already unusable
    }
    reader = null;
    return null;
  }
}

/**
 * A task's reads in one read transaction. SQLite empties a connection's page cache whenever a read starts
 * after another connection committed (the main thread commits all the time): one snapshot per task, not one
 * per statement, keeps the index pages its statements share.
 */
async function inSnapshot<T>(file: string, reads: () => Promise<T>): Promise<T> {
  const snapshot = tryRead(async () => connect(file).db.exec("BEGIN"));
  try {
    return await reads();
  } finally {
    if ((await snapshot) !== null && reader?.db.inTransaction) reader.db.exec("COMMIT");
  }
}

async function answer(task: Task): Promise<Answer> {
  if (task.kind === "inward") {
    const { file, brainId, sourceId, pages, outwardSeen } = task.lookup;
    const inward = () => {
      const { read, titles, pairs } = connect(file);
      return findLateLinks(read, titles, brainId, sourceId, pages, outwardSeen, pairs);
    };
    return inSnapshot(file, async () => ({ inward: await tryRead(inward) }));
  }
  const concepts = extractConcepts(task.pages, task.docTitle);
  const lookup = task.lookup;
  if (!lookup) return { concepts, facts: null };
  return inSnapshot(lookup.file, async () => {
    const facts = await tryRead(async () =>
      conceptFacts(read(lookup.file), lookup.brainId, lookup.sourceId, concepts, lookup.ownSlugs, await connect(lookup.file).known.of(lookup.brainId)),
    );
    if (!lookup.outward) return { concepts, facts };
    const outward = await tryRead(() => outwardMarkdowns(lookup.file, lookup.brainId, lookup.sourceId, task.pages));
    return { concepts, facts, markdowns: outward?.markdowns ?? null, outwardSeen: outward?.seen };
  });
}

self.onmessage = async (event: MessageEvent<{ id: number; task: Task }>) => {
  const { id, task } = event.data;
  try {
    // As JSON text: the answer is hundreds of small objects (concepts, their mentions), which the structured
    // clone walks at about twice JSON's cost on this thread (71-92 against 44-46 µs an abstract's answer).
    self.postMessage({ id, json: JSON.stringify(await answer(task)) });
  } catch (e) {
    self.postMessage({ id, error: (e as Error)?.message ?? String(e) });
  }
};

// Before any task: a task posted meanwhile waits for it (~140 ms once), as it would have waited for the model.
try {
  warmUpExtraction();
} catch {
  // a failed warm-up changes nothing: the first task loads the model as before (and reports what fails)
}
