// Wiki pages the app actions may render: pages of public FREE brains only. A paid brain's pages are
// sold per question by its owner, so a cheaper share card or clip must not become a way around that.
import { and, eq, notExists, sql } from "drizzle-orm";
import type { RootDb } from "../../../db/client";
import { brains, pages, paidBrains } from "../../../db/schema";
import { notFound } from "../../../lib/errors";
import { slugRef } from "../../../lib/slug";

export interface PublicPage {
  brainName: string;
  slug: string;
  title: string;
  markdown: string;
}

export async function requirePublicPage(db: RootDb, brainId: string, slug: string): Promise<PublicPage> {
  const [row] = await db
    .select({ brainName: brains.name, slug: pages.slug, title: pages.title, markdown: pages.markdown })
    .from(pages)
    .innerJoin(brains, eq(brains.id, pages.brainId))
    .where(
      and(
        eq(pages.brainId, brainId),
        eq(pages.slug, slugRef(slug)),
        eq(brains.visibility, "public"),
        notExists(db.select({ one: sql`1` }).from(paidBrains).where(eq(paidBrains.brainId, brainId))),
      ),
    );
  if (!row) throw notFound("Page");
  return row;
}

/** Markdown → plain prose: no headings marks, links as their text, no code, no `Related:` footer. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .split("\n")
    .filter((line) => !/^\s*(Related|Source):/i.test(line))
    .join("\n")
    .replace(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_, slug: string, label?: string) => label ?? slug.replaceAll("-", " "))
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, " ")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
    .replace(/[*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentences short enough to read in a clip, in page order. */
export function quotableSentences(text: string, max: number): string[] {
  const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/).map((s) => s.trim());
  const good = sentences.filter((s) => s.length >= 30 && s.length <= 220 && /[a-z]/i.test(s));
  const picked = good.length > 0 ? good : sentences.filter((s) => s.length > 0).map((s) => s.slice(0, 220));
  return picked.slice(0, max);
}
