// A list cursor made of the last row's (time, id): stable while new rows arrive (the ask history, conversations).
import { invalid } from "./errors";

export const encodeTimeCursor = (at: number, id: string) => Buffer.from(`${at}.${id}`).toString("base64url");

/** The (time, id) of a cursor this server returned; anything else is 422 `invalid_request` on `cursor`. */
export function decodeTimeCursor(cursor: string): { at: number; id: string } {
  const raw = Buffer.from(cursor, "base64url").toString();
  const dot = raw.indexOf(".");
  const at = Number(raw.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(at) || !raw.slice(dot + 1)) throw invalid("cursor", "cursor is not a nextCursor this server returned");
  return { at, id: raw.slice(dot + 1) };
}
