// The direction of imports (docs/architecture.md), enforced: a folder of src/ imports only from the layers
// below its own, never sideways into another folder of its layer nor upwards. Type-only imports count too:
// a type is a dependency of the design as much as a value is.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "../support/cli";

/** Top to bottom; each entry is one layer, the folders (or root files) of src/ it holds. */
export const LAYERS: string[][] = [
  ["main"],
  ["import", "runtime"],
  ["server"],
  ["modules"],
  ["jobs"],
  ["context"],
  ["config"],
  ["concepts"],
  ["ingest"],
  ["links"],
  ["retrieval"],
  ["ai", "storage", "pay", "http", "queue"],
  ["db"],
  ["lib", "version"],
];
const SRC = join(ROOT, "src");
const rank = new Map(LAYERS.flatMap((layer, i) => layer.map((name) => [name, i] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    // Declaration files only describe modules (asset imports): they import nothing at run time.
    return /\.(ts|js)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The folder of src/ a file belongs to (a root file is its own unit), or null outside src/. */
function unitOf(path: string): string | null {
  const rel = relative(SRC, path);
  if (rel.startsWith("..")) return null;
  const [first] = rel.split("/");
  return first!.replace(/\.(ts|js)$/, "");
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']/gm),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g),
    ...text.matchAll(/new URL\(\s*["'](\.[^"']+)["']\s*,\s*import\.meta\.url/g),
  ].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith(".")).map((s) => resolve(dirname(file), s));
}

export function layerViolations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = unitOf(file)!;
    for (const target of importsOf(file)) {
      const to = unitOf(target);
      if (to === null || to === from) continue;
      const a = rank.get(from);
      const b = rank.get(to);
      if (a === undefined || b === undefined) found.push(`${relative(SRC, file)}: ${from} or ${to} has no layer`);
      else if (b <= a) found.push(`${relative(SRC, file)} → ${relative(SRC, target)} (${from} may not import ${to})`);
    }
  }
  return found;
}

describe("layers", () => {
  test("every folder of src/ has a layer", () => {
    const units = new Set(sourceFiles(SRC).map((f) => unitOf(f)!));
    expect([...units].filter((u) => !rank.has(u))).toEqual([]);
  });

  test("no import goes against the direction", () => {
    expect(layerViolations()).toEqual([]);
  });

  test("the check sees an upward, a sideways and a type-only import", () => {
    const probe = (text: string) => {
      const file = join(SRC, "db", "probe.ts");
      const matches = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => unitOf(resolve(dirname(file), m[1]!)));
      return matches.map((to) => (rank.get(to!)! <= rank.get("db")! ? "violation" : "ok"));
    };
    expect(probe(`import { x } from "../modules/auth/keys";`)).toEqual(["violation"]);
    expect(probe(`import type { Config } from "../config";`)).toEqual(["violation"]);
    expect(probe(`import { log } from "../lib/log";`)).toEqual(["ok"]);
  });
});
