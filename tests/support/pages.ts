// Writes wiki pages straight into the database (one ready note source per call), for tests that need pages
// without waiting for ingestion, or many of them. Triggers keep FTS current; vectors are optional.
import type { RootDb } from "../../src/db/client";
import { sql } from "drizzle-orm";
import { slugify } from "../../src/lib/slug";
import { newId } from "../../src/lib/secrets";

export interface PageInput {
  title: string;
  markdown: string;
  slug?: string;
  /** Unit vector for `model`. */
  vector?: number[] | Float32Array;
}

export async function insertPages(db: RootDb, brainId: string, pages: PageInput[], opts: { model?: string; sourceTitle?: string } = {}) {
  const sourceId = newId("src");
  await db.run(sql`INSERT INTO sources (id, brain_id, type, title, status, content, page_count)
    VALUES (${sourceId}, ${brainId}, 'note', ${opts.sourceTitle ?? pages[0]?.title ?? "pages"}, 'ready', '', ${pages.length})`);
  const statements = pages.flatMap((p, position) => {
    const slug = p.slug ?? slugify(p.title);
    const insert = db.run(sql`INSERT INTO pages (brain_id, source_id, slug, title, markdown, position)
      VALUES (${brainId}, ${sourceId}, ${slug}, ${p.title}, ${p.markdown}, ${position})`);
    if (!p.vector || !opts.model) return [insert];
    return [
      insert,
      db.run(sql`INSERT INTO page_vectors (page_id, brain_id, model, embedding)
        SELECT id, brain_id, ${opts.model}, vector32(${JSON.stringify(Array.from(p.vector))}) FROM pages WHERE brain_id = ${brainId} AND slug = ${slug}`),
    ];
  });
  for (let i = 0; i < statements.length; i += 500) {
    await db.batch(statements.slice(i, i + 500) as unknown as Parameters<RootDb["batch"]>[0]);
  }
  return { sourceId };
}
