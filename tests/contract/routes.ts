// Every documented route, read from the server's own OpenAPI document, with a body each accepts, so the
// contract tests cover routes added later without anyone listing them here.
import type { TestServer } from "../support/server";

export interface Route {
  method: string;
  /** OpenAPI form, e.g. /api/v1/brains/{brainId}/ask */
  path: string;
  params: string[];
  /** The JSON body schema, when the route takes one. */
  bodySchema?: JsonSchema;
}

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  [key: string]: unknown;
}

/** Routes whose bodies are not JSON (OAuth's forms, RFC 6749) or not bodies at all (the upload's bytes). */
export const NON_JSON_ROUTES = /^\/oauth\/|^\/api\/uploads\//;

export async function documentedRoutes(s: TestServer): Promise<Route[]> {
  const spec = (await (await fetch(`${s.url}/swagger/json`)).json()) as { paths: Record<string, Record<string, any>> };
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(ops)) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      routes.push({ method: method.toUpperCase(), path, params, bodySchema: op.requestBody?.content?.["application/json"]?.schema });
    }
  return routes;
}

/** A body the route accepts (so a test sees what it provokes, not a validation error it did not intend). */
export function validBody(route: Route, ids: { brainId: string; slug: string }): Record<string, unknown> | undefined {
  const known: Record<string, Record<string, unknown>> = {
    "POST /api/brains/{brainId}/sources": { type: "text", title: "Probe", content: "A probe passage." },
    "POST /api/v1/brains/{brainId}/sources": { title: "Probe", content: "A probe passage." },
    "PUT /api/v1/brains/{brainId}/paid": { priceAtomic: "10000", payTo: "0x000000000000000000000000000000000000dEaD" },
    "POST /api/v1/brain-sets": { name: "Probe set", primaryBrainId: ids.brainId, advisorBrainIds: [ids.brainId] },
    "POST /api/x402/geo/scan": { url: "https://example.com/" },
    "POST /api/x402/clips/render": { brainId: ids.brainId, slug: ids.slug },
    "POST /api/x402/social/image": { title: "Probe" },
    "PATCH /api/v1/brains/{brainId}": { emoji: "🪨" },
    "PATCH /api/v1/brain-sets/{setId}": { name: "Probe set renamed" },
    "PATCH /api/v1/teams/{teamId}": { name: "Probe team" },
    "POST /api/v1/teams/{teamId}/members": { email: "probe@example.test" },
    "PATCH /api/v1/webhooks/{webhookId}": { enabled: false },
  };
  const key = `${route.method} ${route.path}`;
  if (key in known) return known[key];
  if (!route.bodySchema) return undefined;
  return Object.fromEntries((route.bodySchema.required ?? []).map((name) => [name, sample(name, route.bodySchema!.properties?.[name] ?? {})]));
}

function sample(name: string, schema: JsonSchema): unknown {
  const fixed: Record<string, unknown> = { filename: "probe.txt", contentType: "text/plain", size: 5, plan: "pro", question: "What is a probe?", query: "probe" };
  if (name in fixed) return fixed[name];
  if (schema.anyOf) return sample(name, schema.anyOf[0]!);
  if ("const" in schema) return schema.const;
  if (schema.type === "integer" || schema.type === "number") return (schema.minimum as number | undefined) ?? 1;
  if (schema.type === "boolean") return true;
  if (schema.type === "array") return [sample(name, schema.items ?? {})];
  if (schema.type === "object")
    return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(key, schema.properties?.[key] ?? {})]));
  return `probe ${name}`;
}

/** Body properties typed number, integer or boolean (not those that also take a string, like priceAtomic). */
export function scalarFields(schema: JsonSchema | undefined): { name: string; type: string; value: unknown }[] {
  return Object.entries(schema?.properties ?? {}).flatMap(([name, p]): { name: string; type: string; value: unknown }[] =>
    p.type === "integer" || p.type === "number"
      ? [{ name, type: p.type, value: (p.minimum as number | undefined) ?? 1 }]
      : p.type === "boolean"
        ? [{ name, type: p.type, value: true }]
        : [],
  );
}

/** The concrete path with each `{param}` replaced. */
export const fill = (route: Route, values: Record<string, string>) => route.path.replace(/\{(\w+)\}/g, (_, p: string) => values[p] ?? `missing-${p}`);
