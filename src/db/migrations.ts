// The migrations, embedded as text so the compiled binary carries them. A test checks this list matches
// migrations/meta/_journal.json, so adding a migration without listing it here fails CI.
import journal from "../../migrations/meta/_journal.json";
import m0000 from "../../migrations/0000_init.sql" with { type: "text" };
import m0001 from "../../migrations/0001_fts_and_plans.sql" with { type: "text" };
import m0002 from "../../migrations/0002_settings.sql" with { type: "text" };
import m0003 from "../../migrations/0003_metering_and_brain_sets.sql" with { type: "text" };
import m0004 from "../../migrations/0004_x402_payments.sql" with { type: "text" };
import m0005 from "../../migrations/0005_asks_and_vector_versions.sql" with { type: "text" };
import m0006 from "../../migrations/0006_oauth.sql" with { type: "text" };
import m0007 from "../../migrations/0007_brain_names_unique.sql" with { type: "text" };
import m0008 from "../../migrations/0008_wiki_graph.sql" with { type: "text" };
import m0009 from "../../migrations/0009_payments_reconcile_and_owner_view.sql" with { type: "text" };
import m0010 from "../../migrations/0010_web_sessions.sql" with { type: "text" };
import m0012 from "../../migrations/0012_ask_answers.sql" with { type: "text" };
import m0013 from "../../migrations/0013_search_text.sql" with { type: "text" };
import m0014 from "../../migrations/0014_ingest_at_scale.sql" with { type: "text" };
import m0015 from "../../migrations/0015_graph_degree_and_source_count.sql" with { type: "text" };
import m0016 from "../../migrations/0016_graph_degree_on_read.sql" with { type: "text" };
import m0017 from "../../migrations/0017_lone_concepts.sql" with { type: "text" };
import m0018 from "../../migrations/0018_compact_lone_rows.sql" with { type: "text" };
import m0019 from "../../migrations/0019_person_aliases.sql" with { type: "text" };
import m0020 from "../../migrations/0020_label_concepts.sql" with { type: "text" };
import m0021 from "../../migrations/0021_kind_partial_indexes.sql" with { type: "text" };
import m0022 from "../../migrations/0022_concept_seen_numbers.sql" with { type: "text" };
import m0023 from "../../migrations/0023_lone_merged_through.sql" with { type: "text" };
import m0024 from "../../migrations/0024_audit_log_and_emails.sql" with { type: "text" };
import m0025 from "../../migrations/0025_people_sessions.sql" with { type: "text" };
import m0027 from "../../migrations/0027_connectors.sql" with { type: "text" };
import m0026 from "../../migrations/0026_teams_and_shares.sql" with { type: "text" };
import m0030 from "../../migrations/0030_sso_identities.sql" with { type: "text" };
import m0028 from "../../migrations/0028_webhooks.sql" with { type: "text" };
import m0031 from "../../migrations/0031_team_key_policy.sql" with { type: "text" };
import m0032 from "../../migrations/0032_conversations.sql" with { type: "text" };

const sqlByTag: Record<string, string> = {
  "0000_init": m0000,
  "0001_fts_and_plans": m0001,
  "0002_settings": m0002,
  "0003_metering_and_brain_sets": m0003,
  "0004_x402_payments": m0004,
  "0005_asks_and_vector_versions": m0005,
  "0006_oauth": m0006,
  "0007_brain_names_unique": m0007,
  "0008_wiki_graph": m0008,
  "0009_payments_reconcile_and_owner_view": m0009,
  "0010_web_sessions": m0010,
  "0012_ask_answers": m0012,
  "0013_search_text": m0013,
  "0014_ingest_at_scale": m0014,
  "0015_graph_degree_and_source_count": m0015,
  "0016_graph_degree_on_read": m0016,
  "0017_lone_concepts": m0017,
  "0018_compact_lone_rows": m0018,
  "0019_person_aliases": m0019,
  "0020_label_concepts": m0020,
  "0021_kind_partial_indexes": m0021,
  "0022_concept_seen_numbers": m0022,
  "0023_lone_merged_through": m0023,
  "0024_audit_log_and_emails": m0024,
  "0025_people_sessions": m0025,
  "0027_connectors": m0027,
  "0026_teams_and_shares": m0026,
  "0030_sso_identities": m0030,
  "0028_webhooks": m0028,
  "0031_team_key_policy": m0031,
  "0032_conversations": m0032,
};

export interface Migration {
  tag: string;
  /** drizzle-kit's journal timestamp: migrations apply in this order and are recorded by it. */
  when: number;
  statements: string[];
}

export const migrations: Migration[] = journal.entries.map((entry) => {
  const sql = sqlByTag[entry.tag];
  if (sql === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded`);
  return {
    tag: entry.tag,
    when: entry.when,
    statements: sql
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean),
  };
});

export const embeddedTags = Object.keys(sqlByTag);
