// OCR quality and speed on scans made here: a page of English text (about 1,400 characters, numbers and
// punctuation included) drawn at 150, 200 and 300 dpi, clean, and turned 1.5 degrees with grey noise and
// specks. Each page is read the way the document thread reads one (read-page.ts, models loaded once before
// the clock starts). Prints per setting: character accuracy (1 - CER, whitespace runs compared as one
// space) and seconds per page.
// Usage: bun scripts/bench-ocr.ts [--pages N]   (N pages per setting, each a different part of the text)
import { readPageImage } from "../src/ingest/ocr/read-page.ts";
import { loadOcrModels } from "../src/ingest/ocr/models.ts";
import { renderScan, type ScanOptions } from "../tests/support/scans.ts";

const PARAGRAPHS = [
  "Travel and expenses. Employees book economy class for any flight shorter than six hours; business class needs the written approval of a director. Hotel nights are refunded up to 140 euros in most cities, and up to 210 euros in London, Paris, Zurich and New York.",
  "Receipts must be uploaded within 30 days of the end of a trip. A claim without a receipt is paid only for items below 25 euros, and never for more than three such items on one claim. Mileage for a private car is paid at 0.30 euros per kilometre.",
  "Working from home. Staff may work from home on up to three days a week, agreed with their team lead. The company pays for a desk chair and a second screen once every four years; broken equipment is replaced through the help desk (extension 4471).",
  "Security. Laptops are locked when left alone, even for a minute. Visitors sign in at the front desk, wear a badge at all times and are accompanied in the labs. Report a lost badge or key to security on the same day: call 0800-555-0199.",
  "Holidays. Full-time staff have 27 days of paid leave a year, plus public holidays. Up to five unused days may be carried over to the next year, but they lapse on 31 March. Parental leave, sick leave and jury duty do not count against holidays.",
];

const pagesArg = process.argv.indexOf("--pages");
const pagesPerSetting = pagesArg > 0 ? Number(process.argv[pagesArg + 1]) : 1;

/** Levenshtein distance of two strings, in one row of memory. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

await loadOcrModels();
const settings: Array<[string, ScanOptions]> = [];
for (const dpi of [150, 200, 300]) {
  settings.push([`${dpi} dpi clean`, { dpi }]);
  settings.push([`${dpi} dpi rotated 1.5°, noisy`, { dpi, rotate: 1.5, noise: 14 }]);
}
console.log(`${pagesPerSetting} page(s) per setting, ${flat(PARAGRAPHS.join(" ")).length} characters of text per page`);
console.log("setting                         accuracy   s/page");
for (const [name, options] of settings) {
  let errors = 0;
  let characters = 0;
  let seconds = 0;
  for (let p = 0; p < pagesPerSetting; p++) {
    const text = [...PARAGRAPHS.slice(p % PARAGRAPHS.length), ...PARAGRAPHS.slice(0, p % PARAGRAPHS.length)];
    const page = await renderScan(text, { ...options, seed: p + 1 });
    const started = performance.now();
    const read = await readPageImage(page, { ocrPageTimeMs: 600_000 }, `page ${p + 1}`);
    seconds += (performance.now() - started) / 1000;
    const truth = flat(text.join(" "));
    errors += distance(truth, flat(read));
    characters += truth.length;
  }
  const accuracy = (100 * (1 - errors / characters)).toFixed(2);
  console.log(`${name.padEnd(32)}${`${accuracy} %`.padStart(8)}${(seconds / pagesPerSetting).toFixed(1).padStart(9)}`);
}
