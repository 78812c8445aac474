// The extraction thread's first source paid for loading the tagger's model and running its code cold: ~140 ms
// before the first answer, and the first 64 abstracts of an import at ~3 ms each against ~1.1 ms after one
// warm-up read (measured on the import bench's corpus). The thread reads this short text once when it starts,
// so a fresh server's first import does not wait on it; the model is still never loaded on the main thread
// (cold start, commands that never ingest).
import { extractConcepts } from "./extract";

/** Names, places, organizations and noun phrases in a few sentences: what the tagger's hot paths read. */
const SAMPLE = `# Harbour survey of 1887

The survey of the harbour at Port Elwyn was led by Ada Quill of the Royal Hydrographic Office in 1887. Her team charted the shoals near Gull Island and the old breakwater, and their tide tables were used by the Elwyn Harbour Board for forty years.

Quill later taught surveying at the University of Glasgow. The Admiralty printed her charts in London; a copy is kept at the National Maritime Museum, with the field notes of the survey vessel Petrel.`;

/** Reads the sample once; returns the concepts found (what the tests check the warm-up by). */
export function warmUpExtraction() {
  return extractConcepts([{ slug: "harbour-survey", title: "Harbour survey of 1887", markdown: SAMPLE }], "Harbour survey of 1887");
}
