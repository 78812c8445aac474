// `brainbox import --sync`: files an earlier import of this folder sent (the state file says which) that are
// no longer in the folder get their sources deleted from the brain. Only those: a source another import or a
// person added is never touched, because the state names the files and the externalId convention
// (`file:<path>`) names their sources. A folder that could not be read this time deletes nothing below it.
import { externalIdOf } from "./external-id";
import type { FileOutcome } from "./progress";
import type { ImportState } from "./state";

export interface BrainApi {
  /** GET or DELETE under /api/v1/brains/{id}. */
  request(path: string, method?: "GET" | "DELETE"): Promise<Response>;
}

export class SyncError extends Error {}

/** The files to remove: recorded before, not found now, not under a folder that could not be read. */
export function vanished(state: ImportState, present: ReadonlySet<string>, unreadable: readonly string[]): string[] {
  const under = (rel: string) => unreadable.some((dir) => dir === "." || rel === dir || rel.startsWith(`${dir}/`));
  return state.files().filter((rel) => !present.has(rel) && !under(rel));
}

export async function removeVanished(api: BrainApi, state: ImportState, rels: string[], report: (o: FileOutcome) => void): Promise<void> {
  if (rels.length === 0) return;
  const res = await api.request("/sources");
  if (!res.ok) throw new SyncError(`could not list the brain's sources to remove deleted files: HTTP ${res.status}`);
  const { sources } = (await res.json()) as { sources: { id: string; externalId: string | null }[] };
  const byExternalId = new Map(sources.filter((s) => s.externalId).map((s) => [s.externalId!, s.id]));
  for (const rel of rels) {
    const id = byExternalId.get(externalIdOf(rel));
    if (id) {
      const del = await api.request(`/sources/${encodeURIComponent(id)}`, "DELETE");
      if (del.status !== 204 && del.status !== 404) {
        report({ file: rel, status: "failed", reason: `the server did not remove its source: HTTP ${del.status}` });
        continue;
      }
      report({ file: rel, status: "removed", sourceId: id });
    }
    // Gone from the brain already (removed by hand): nothing to do but forget it.
    state.forget(rel);
  }
  state.save();
}
