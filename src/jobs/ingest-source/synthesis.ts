// Wiki synthesis: sections of the document become pages. With Ollama, the model rewrites each section as
// a wiki page that keeps every fact traceable to the source; without it (or when it fails), the
// deterministic synthesizer's pages are used as they are, so air-gapped brains work the same.
import type { Generator } from "../../ai/generator";
import { synthesizePages, type SynthesizedPage } from "../../ingest";
import type { Logger } from "../../lib/log";
import { withLead } from "../../concepts/lead";
import type { SourceDocument } from "./document";

/** Sources with more sections than this keep the deterministic pages: a model call each would be too slow. */
const MAX_MODEL_PAGES = 12;

const SYSTEM = [
  "You turn a section of a source document into one page of a team wiki.",
  "Write clear markdown. Keep every fact, name and number exactly as the source states it; add nothing the source does not say.",
  "Do not add a title line. Start with a one- or two-sentence summary of the section (the lead), then the content. Keep code blocks verbatim.",
].join(" ");

export async function synthesize(doc: SourceDocument, opts: { generator: Generator | null; log: Logger; signal: AbortSignal }): Promise<SynthesizedPage[]> {
  // Without a model every page opens with its extractive lead (its most central sentence).
  const pages = synthesizePages({ title: doc.title, markdown: doc.markdown, sourceUrl: doc.origin, pagePerSection: doc.pagePerSection });
  const led = pages.map((p) => ({ ...p, markdown: withLead(p.markdown, p.title) }));
  if (!opts.generator || pages.length > MAX_MODEL_PAGES) return led;
  const out: SynthesizedPage[] = [];
  for (const [i, page] of pages.entries()) {
    try {
      const written = await opts.generator.chat(
        [
          { role: "system", content: SYSTEM },
          { role: "user", content: `Page title: ${page.title}\n\nSource section:\n\n${page.markdown}` },
        ],
        { signal: opts.signal, temperature: 0 },
      );
      out.push({ title: page.title, markdown: written.trim() ? withOrigin(written.trim(), doc.origin) : led[i]!.markdown });
    } catch (e) {
      if (opts.signal.aborted) throw e;
      opts.log.warn("model synthesis failed; keeping the deterministic page", { error: (e as Error).message });
      out.push(led[i]!);
    }
  }
  return out;
}

const withOrigin = (markdown: string, origin?: string) => (origin && !markdown.includes(origin) ? `${markdown}\n\nSource: <${origin}>` : markdown);
