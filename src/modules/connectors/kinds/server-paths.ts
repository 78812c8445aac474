// Server folders a connector may read: only under the roots the operator allow-listed by environment, and
// judged by the real path (a symlink that leads out of the roots is refused like a path outside them).
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { invalid } from "../../../lib/errors";

export const isUnder = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

const realRoots = (roots: readonly string[]) =>
  roots.flatMap((r) => {
    try {
      return [realpathSync(resolve(r))];
    } catch {
      return []; // a root that does not exist (yet) allows nothing
    }
  });

/** The real path of a folder under the roots, or a 422 naming `config.<field>`. */
export function folderUnderRoots(raw: unknown, field: string, roots: readonly string[], envName: string): string {
  const name = `config.${field}`;
  if (typeof raw !== "string" || !isAbsolute(raw.trim())) throw invalid(name, `${name} must be an absolute path on the server`);
  const allowed = realRoots(roots);
  if (allowed.length === 0) throw invalid(name, `no server folder may be read: set ${envName} to the folders connectors may read`);
  const wanted = resolve(raw.trim());
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw invalid(name, `${name} does not exist on the server: ${wanted}`);
  }
  if (!allowed.some((root) => isUnder(root, real)))
    throw invalid(name, `${name} is outside the folders allowed by ${envName}${real !== wanted ? ` (it leads to ${real})` : ""}`);
  if (!statSync(real).isDirectory()) throw invalid(name, `${name} is not a folder: ${wanted}`);
  return real;
}
