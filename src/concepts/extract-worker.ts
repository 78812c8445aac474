// A worker thread that extracts concepts (the NLP library's tagging, the CPU-heavy part of ingesting a
// source) for the pool in extract-pool.ts. One message in, one out; nothing is shared. With a lookup it also
// reads what the brain knows of them (facts.ts) through its own read-only connection to the database file,
// so the thread that writes does not spend its time on those index probes.
import Database from "libsql";
import { extractConcepts, type PageText } from "./extract";
import { conceptFacts, type ConceptFacts } from "./facts";

declare const self: Worker;

export interface ConceptLookup {
  /** The embedded database file. */
  file: string;
  brainId: string;
  sourceId: string;
  ownSlugs: string[];
}

interface Request {
  id: number;
  pages: PageText[];
  docTitle: string;
  lookup?: ConceptLookup;
}

type Statement = ReturnType<InstanceType<typeof Database>["prepare"]>;
let reader: { file: string; db: InstanceType<typeof Database>; statements: Map<string, Statement> } | null = null;

function read(file: string) {
  if (reader?.file !== file) {
    reader?.db.close();
    reader = { file, db: new Database(file, { readonly: true, timeout: 5000 } as ConstructorParameters<typeof Database>[1]), statements: new Map() };
  }
  const { db, statements } = reader;
  return (sql: string, args: (string | number)[]) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement.all(args) as Record<string, unknown>[];
  };
}

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id, pages, docTitle, lookup } = event.data;
  let concepts;
  try {
    concepts = extractConcepts(pages, docTitle);
  } catch (e) {
    self.postMessage({ id, error: (e as Error)?.message ?? String(e) });
    return;
  }
  let facts: ConceptFacts | null = null;
  if (lookup) {
    try {
      facts = await conceptFacts(read(lookup.file), lookup.brainId, lookup.sourceId, concepts, lookup.ownSlugs);
    } catch {
      // The main thread reads them instead (a file it cannot open here, say); the next lookup reconnects.
      try {
        reader?.db.close();
      } catch {
        // already unusable
      }
      reader = null;
    }
  }
  self.postMessage({ id, concepts, facts });
};
