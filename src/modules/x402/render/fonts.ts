// The fonts every image is drawn with: Noto Sans (Latin, Cyrillic, Greek) and Noto Sans Arabic, regular and
// bold, from their npm packages and embedded in the binary as files. CJK comes in slices on demand (cjk.ts).
import type { Font } from "satori";
import latin400 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff" with { type: "file" };
import latin700 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff" with { type: "file" };
import latinExt400 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff" with { type: "file" };
import latinExt700 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-latin-ext-700-normal.woff" with { type: "file" };
import cyrillic400 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-cyrillic-400-normal.woff" with { type: "file" };
import cyrillic700 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-cyrillic-700-normal.woff" with { type: "file" };
import greek400 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-greek-400-normal.woff" with { type: "file" };
import greek700 from "../../../../node_modules/@fontsource/noto-sans/files/noto-sans-greek-700-normal.woff" with { type: "file" };
import arabic400 from "../../../../node_modules/@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff" with { type: "file" };
import arabic700 from "../../../../node_modules/@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff" with { type: "file" };

/** The family the layouts ask for. */
export const FAMILY = "Noto Sans";

// Satori takes one font per family name and weight, and looks in the other families for a character the
// asked family lacks: so each subset file is a family of its own.
const FILES: Array<[name: string, path: string, weight: 400 | 700]> = [
  [FAMILY, latin400, 400],
  [FAMILY, latin700, 700],
  ["Noto Sans Latin Ext", latinExt400, 400],
  ["Noto Sans Latin Ext", latinExt700, 700],
  ["Noto Sans Cyrillic", cyrillic400, 400],
  ["Noto Sans Cyrillic", cyrillic700, 700],
  ["Noto Sans Greek", greek400, 400],
  ["Noto Sans Greek", greek700, 700],
  ["Noto Sans Arabic", arabic400, 400],
  ["Noto Sans Arabic", arabic700, 700],
];

export async function readFont(name: string, path: string, weight: 400 | 700): Promise<Font> {
  return { name, data: await Bun.file(path).arrayBuffer(), weight, style: "normal" };
}

let loaded: Promise<Font[]> | undefined;

/** Read once; satori keeps its parse of each font keyed by these buffers. */
export function baseFonts(): Promise<Font[]> {
  loaded ??= Promise.all(FILES.map(([name, path, weight]) => readFont(name, path, weight)));
  return loaded;
}
