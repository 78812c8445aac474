// Walks an import folder: every regular file below it, following symlinks once (a link back into a folder
// already on the path is a loop and is skipped with that reason), in a stable order.
import { readdir, realpath, stat } from "node:fs/promises";
import { extname, join, relative } from "node:path";

export const IMPORTABLE = new Set([".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt", ".text", ".xlsx", ".ods", ".csv", ".tsv", ".pptx", ".epub", ".odt"]);

export type Found = { path: string; rel: string } | { path: string; rel: string; skipped: string };

export async function* walk(root: string): AsyncGenerator<Found> {
  const rootReal = await realpath(root);
  yield* visit(root, root, [rootReal]);
}

async function* visit(root: string, dir: string, ancestors: string[]): AsyncGenerator<Found> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (e) {
    yield { path: dir, rel: relative(root, dir) || ".", skipped: `folder not readable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const rel = relative(root, path);
    if (name.startsWith(".")) continue; // hidden files and folders (.git, editor state) are not content
    let info;
    let real: string;
    try {
      real = await realpath(path);
      info = await stat(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      yield { path, rel, skipped: code === "ELOOP" ? "symlink loop" : code === "ENOENT" ? "broken symlink" : `not readable (${code ?? (e as Error).message})` };
      continue;
    }
    if (info.isDirectory()) {
      if (ancestors.includes(real)) {
        yield { path, rel, skipped: "symlink loop (links back to a folder above it)" };
        continue;
      }
      yield* visit(root, path, [...ancestors, real]);
    } else if (info.isFile()) {
      if (!IMPORTABLE.has(extname(name).toLowerCase())) yield { path, rel, skipped: `unsupported file type "${extname(name) || "(none)"}"` };
      else yield { path, rel };
    }
  }
}
