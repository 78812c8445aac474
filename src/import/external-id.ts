// Each imported file's externalId is its path under the folder, so a re-run upserts instead of doubling.
import { createHash } from "node:crypto";

const MAX_EXTERNAL_ID = 200;

export const externalIdOf = (rel: string) => {
  const id = `file:${rel.split("\\").join("/")}`;
  return id.length <= MAX_EXTERNAL_ID ? id : `file-sha256:${createHash("sha256").update(rel).digest("hex")}`;
};
