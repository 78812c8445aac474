// The connector kinds, by name. A new kind is a folder of its own implementing ConnectorKind, listed here.
import { AppError } from "../../../lib/errors";
import type { ConnectorKind } from "./types";
import { websiteKind } from "./website";
import { feedKind } from "./feed";
import { linksKind } from "./links";
import { gitKind } from "./git";
import { folderKind } from "./folder";

const KINDS: ReadonlyMap<string, ConnectorKind<any>> = new Map([websiteKind, feedKind, linksKind, gitKind, folderKind].map((k) => [k.kind, k as ConnectorKind<any>]));

export const kindNames = () => [...KINDS.keys()];

/** The kind by name, or a 422 naming `kind`. */
export function kindOf(name: unknown): ConnectorKind<any> {
  const kind = typeof name === "string" ? KINDS.get(name) : undefined;
  if (!kind) throw new AppError("invalid_request", `kind must be one of ${kindNames().join(", ")}`, { field: "kind" });
  return kind;
}

export type { ConnectorKind, FetchOutcome, ItemRef, ItemSource, KindRun, KnownItem } from "./types";
