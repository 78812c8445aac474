// What went wrong with an item, in plain words for the owner (never a secret: headers are not in messages).
import { isIngestError } from "../../ingest";

export function plainError(e: unknown): string {
  if (isIngestError(e)) {
    switch (e.code) {
      case "timeout":
        return `the site did not answer in time (${e.message})`;
      case "too_many_redirects":
        return `it redirects in a loop or too many times (${e.message})`;
      case "too_large":
        return `it is larger than the largest document allowed (${e.message})`;
      case "address_blocked":
        return e.message;
      default:
        return e.message;
    }
  }
  return e instanceof Error ? e.message : String(e);
}
