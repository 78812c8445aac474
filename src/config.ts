// Environment → typed config, validated once at start. Every variable is listed in ENV_VARS so `--help`
// and the README stay true to what the code reads.
import { resolve } from "node:path";
import { availableParallelism } from "node:os";
import { parseAllowList } from "./ingest/address-policy";
import { DEFAULT_EXTRACTION_BUDGET as EXTRACT } from "./ingest/budget";
import { parseCidrList } from "./http/client-address";

type Parser<T> = (raw: string) => T;

interface Var<T> {
  name: string;
  help: string;
  default?: string;
  parse: Parser<T>;
}

const str: Parser<string> = (raw) => raw;
const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw.trim())) throw new Error(`must be a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
const url: Parser<string> = (raw) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`must be an absolute URL, got "${raw}"`);
  }
  if (!["http:", "https:", "libsql:", "wss:", "ws:"].includes(parsed.protocol))
    throw new Error(`must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
};
const smtpUrl: Parser<string> = (raw) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`must be an smtp:// or smtps:// URL, got "${raw}"`);
  }
  if (!["smtp:", "smtps:"].includes(parsed.protocol)) throw new Error(`must be an smtp:// or smtps:// URL, got "${raw}"`);
  return raw;
};
/** An issuer identifier is compared exactly (some end in `/`), so it is kept as written. */
const issuerUrl: Parser<string> = (raw) => {
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new Error(`must be an http(s) URL, got "${raw}"`);
  return raw;
};
const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(", ")}, got "${raw}"`);
    return raw as T;
  };
const list: Parser<string[]> = (raw) =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const bool: Parser<boolean> = (raw) => {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`must be true or false, got "${raw}"`);
};

function v<T, D extends string | undefined = undefined>(name: string, parse: Parser<T>, help: string, def?: D): Var<T> & { default: D } {
  return { name, parse, help, default: def as D };
}

export const PLANS = ["free", "pro", "team"] as const;
export type PlanId = (typeof PLANS)[number];

const vars = {
  host: v("BRAINBOX_HOST", str, "Interface to listen on", "127.0.0.1"),
  port: v("BRAINBOX_PORT", int(0, 65535), "Port to listen on; 0 picks a free port (the URL is logged)", "8080"),
  dataDir: v("BRAINBOX_DATA_DIR", str, "Folder for the database, uploads and models", "./data"),
  publicUrl: v("BRAINBOX_PUBLIC_URL", url, "Base of absolute links (citations, upload URLs); default http://HOST:PORT"),
  databaseUrl: v("BRAINBOX_DATABASE_URL", url, "Remote libSQL server (sqld/Turso) instead of the embedded file"),
  databaseTimeoutMs: v("BRAINBOX_DATABASE_TIMEOUT_MS", int(100), "Deadline of one request to BRAINBOX_DATABASE_URL", "15000"),
  databaseAuthToken: v("BRAINBOX_DATABASE_AUTH_TOKEN", str, "Auth token for BRAINBOX_DATABASE_URL"),
  maxBodyBytes: v("BRAINBOX_MAX_BODY_BYTES", int(1024), "Largest JSON request body accepted (413 above)", "1048576"),
  maxUploadBytes: v("BRAINBOX_MAX_UPLOAD_BYTES", int(1), "Largest uploaded file accepted", "52428800"),
  ollamaUrl: v("BRAINBOX_OLLAMA_URL", url, "Ollama server for generation; unset = embedded extractive answers"),
  ollamaModel: v("BRAINBOX_OLLAMA_MODEL", str, "Ollama model used for answers and wiki synthesis", "llama3.2"),
  llmUrl: v("BRAINBOX_LLM_URL", url, "Model server for generation of the kind BRAINBOX_LLM_PROVIDER names (e.g. http://gpu-box:8000/v1 for vLLM); instead of BRAINBOX_OLLAMA_URL; unset = Ollama or extractive"),
  llmProvider: v("BRAINBOX_LLM_PROVIDER", oneOf("openai", "azure", "ollama"), "What BRAINBOX_LLM_URL speaks: openai (/v1/chat/completions: vLLM, llama.cpp, LM Studio, LocalAI, OpenAI), azure (Azure OpenAI deployments) or ollama", "openai"),
  llmModel: v("BRAINBOX_LLM_MODEL", str, "Model name at BRAINBOX_LLM_URL (Azure: the deployment name)"),
  llmApiKey: v("BRAINBOX_LLM_API_KEY", str, "API key sent to BRAINBOX_LLM_URL (Bearer; Azure: api-key header); write-only, never shown"),
  llmTimeoutMs: v("BRAINBOX_LLM_TIMEOUT_MS", int(100, 3_600_000), "Longest silence of the generation server (between streamed pieces, or for a whole answer) before the answer is extractive", "120000"),
  azureApiVersion: v("BRAINBOX_AZURE_API_VERSION", str, "api-version of Azure OpenAI requests (generation and embeddings)", "2024-10-21"),
  embedModel: v("BRAINBOX_EMBED_MODEL", str, "Embedding model: a folder under BRAINBOX_MODELS_DIR, or with BRAINBOX_EMBED_URL the server's model name (Azure: deployment); unset = lexical retrieval"),
  embedUrl: v("BRAINBOX_EMBED_URL", url, "Embedding server instead of the local model, of the kind BRAINBOX_EMBED_PROVIDER names"),
  embedProvider: v("BRAINBOX_EMBED_PROVIDER", oneOf("openai", "azure", "ollama"), "What BRAINBOX_EMBED_URL speaks: openai (/v1/embeddings), azure (deployments) or ollama (/api/embed)", "openai"),
  embedApiKey: v("BRAINBOX_EMBED_API_KEY", str, "API key sent to BRAINBOX_EMBED_URL; write-only, never shown"),
  embedDim: v("BRAINBOX_EMBED_DIM", int(1, 65_536), "Dimension the embedding server must answer; another is refused (retrieval stays lexical); unset = learned from the server"),
  embedBatch: v("BRAINBOX_EMBED_BATCH", int(1, 2048), "Texts per request to the embedding server", "64"),
  embedConcurrency: v("BRAINBOX_EMBED_CONCURRENCY", int(1, 64), "Requests in flight at once to the embedding server", "2"),
  embedMaxChars: v("BRAINBOX_EMBED_MAX_CHARS", int(100, 1_000_000), "Characters of a page sent to the embedding server (a remote model refuses input past its context instead of cutting it)", "2000"),
  embedTimeoutMs: v("BRAINBOX_EMBED_TIMEOUT_MS", int(100, 3_600_000), "Deadline of each request to the embedding server", "30000"),
  modelsDir: v("BRAINBOX_MODELS_DIR", str, "Folder of local embedding models (default DATA_DIR/models)"),
  modelHubUrl: v("BRAINBOX_MODEL_HUB_URL", url, "Hugging Face hub or mirror used by `models pull`", "https://huggingface.co"),
  fetchAllowHosts: v("BRAINBOX_FETCH_ALLOW_HOSTS", (raw) => parseAllowList(raw), "Hosts (host or host:port) exempt from the private-address fetch ban", ""),
  fetchTimeoutMs: v("BRAINBOX_FETCH_TIMEOUT_MS", int(100), "Timeout of one link fetch", "15000"),
  fetchMaxBytes: v("BRAINBOX_FETCH_MAX_BYTES", int(1024), "Largest fetched document", "10485760"),
  extractMaxExpandedBytes: v("BRAINBOX_EXTRACT_MAX_EXPANDED_BYTES", int(1024), "Most a document may decompress to (a zip's entries, a PDF's streams, together)", String(EXTRACT.maxExpandedBytes)),
  extractMaxPartBytes: v("BRAINBOX_EXTRACT_MAX_PART_BYTES", int(1024), "Most one zip entry or one PDF stream may decompress to", String(EXTRACT.maxPartBytes)),
  extractMaxEntries: v("BRAINBOX_EXTRACT_MAX_ENTRIES", int(1), "Most entries a zip-based document (DOCX) may hold", String(EXTRACT.maxEntries)),
  extractMaxPages: v("BRAINBOX_EXTRACT_MAX_PAGES", int(1), "Most pages a PDF may have", String(EXTRACT.maxPages)),
  extractMaxRows: v("BRAINBOX_EXTRACT_MAX_ROWS", int(1), "Most rows a spreadsheet or CSV may have (all its sheets together)", String(EXTRACT.maxRows)),
  extractTimeMs: v("BRAINBOX_EXTRACT_TIME_MS", int(100), "Longest the document thread may read one document", String(EXTRACT.timeMs)),
  extractMemoryBytes: v("BRAINBOX_EXTRACT_MEMORY_BYTES", int(1048576), "Most the process's resident memory may grow while one document is read", String(EXTRACT.memoryBytes)),
  ocrMaxPages: v("BRAINBOX_OCR_MAX_PAGES", int(0, 100_000), "Most pages of one document read with OCR (scanned PDF pages without a text layer, images); more fails the document; 0 turns OCR off", String(EXTRACT.ocrMaxPages)),
  ocrMaxPixels: v("BRAINBOX_OCR_MAX_PIXELS", int(10_000), "Most pixels of one image read with OCR; a larger image is refused before it is decoded", String(EXTRACT.ocrMaxPixels)),
  ocrPageTimeMs: v("BRAINBOX_OCR_PAGE_TIME_MS", int(1000), "Longest one page may take to read with OCR (the document's time budget grows by this per page)", String(EXTRACT.ocrPageTimeMs)),
  uploadUrlTtlSeconds: v("BRAINBOX_UPLOAD_URL_TTL_SECONDS", int(1, 86400), "Lifetime of a signed upload URL; a file source whose upload has not arrived by then fails", "900"),
  s3Bucket: v("BRAINBOX_S3_BUCKET", str, "S3-compatible bucket for uploads; unset = the data dir"),
  s3Endpoint: v("BRAINBOX_S3_ENDPOINT", url, "S3-compatible endpoint URL"),
  s3Region: v("BRAINBOX_S3_REGION", str, "S3 region", "us-east-1"),
  s3AccessKeyId: v("BRAINBOX_S3_ACCESS_KEY_ID", str, "S3 access key id"),
  s3SecretAccessKey: v("BRAINBOX_S3_SECRET_ACCESS_KEY", str, "S3 secret access key"),
  backupDir: v("BRAINBOX_BACKUP_DIR", str, "Folder of the backups made through the API (POST /api/v1/admin/backups); default DATA_DIR/backups"),
  backupKeep: v("BRAINBOX_BACKUP_KEEP", int(1, 1000), "Backups made through the API that are kept; the oldest beyond this are deleted when a new one is ready", "7"),
  vaultMaxBytes: v("BRAINBOX_VAULT_MAX_BYTES", int(1024), "Largest vault zip accepted by a brain's import (413 above)", "104857600"),
  vaultMaxNotes: v("BRAINBOX_VAULT_MAX_NOTES", int(1, 1000000), "Most Markdown notes one vault import may hold (422 above)", "20000"),
  vaultMaxExpandedBytes: v("BRAINBOX_VAULT_MAX_EXPANDED_BYTES", int(1024), "Most a vault zip may decompress to, all its entries together (422 above)", "524288000"),
  jobConcurrency: v("BRAINBOX_JOB_CONCURRENCY", int(1, 64), "Jobs processed in parallel by this process (embeddings are batched across them)", "4"),
  nlpThreads: v("BRAINBOX_NLP_THREADS", int(0, 16), "Worker threads that extract concepts from sources (0: in the main thread); default: cores - 1, 1 to 4", String(Math.max(1, Math.min(4, availableParallelism() - 1)))),
  jobMaxAttempts: v("BRAINBOX_JOB_MAX_ATTEMPTS", int(1, 100), "Attempts before a source is marked failed", "4"),
  jobRetryBaseMs: v("BRAINBOX_JOB_RETRY_BASE_MS", int(1), "First retry delay; doubles per attempt (max 5 min)", "2000"),
  shutdownGraceMs: v("BRAINBOX_SHUTDOWN_GRACE_MS", int(0), "On stop, how long running jobs may take to finish before they are handed back to the queue (another replica or the next start runs them)", "10000"),
  jobLeaseMs: v("BRAINBOX_JOB_LEASE_MS", int(1000), "How long a claimed job stays ours without a heartbeat", "60000"),
  connectorSchedulerMs: v("BRAINBOX_CONNECTOR_SCHEDULER_MS", int(100), "How often the job loop looks for connectors whose scheduled sync is due", "5000"),
  connectorGitRoots: v("BRAINBOX_CONNECTOR_GIT_ROOTS", list, "Server folders (comma-separated) under which a git connector may read a repository by path; empty = none", ""),
  connectorFolderRoots: v("BRAINBOX_CONNECTOR_FOLDER_ROOTS", list, "Server folders (comma-separated) under which a folder connector may read; empty = none", ""),
  webhookTimeoutMs: v("BRAINBOX_WEBHOOK_TIMEOUT_MS", int(100), "Deadline of one webhook delivery attempt (connect, answer, its first bytes)", "10000"),
  webhookRetryBaseMs: v("BRAINBOX_WEBHOOK_RETRY_BASE_MS", int(1), "First webhook retry delay; doubles per attempt up to an hour, with jitter", "5000"),
  webhookDisableAfterMs: v("BRAINBOX_WEBHOOK_DISABLE_AFTER_MS", int(1), "A webhook whose deliveries failed this long is turned off (a delivery is retried this long)", "86400000"),
  jobs: v("BRAINBOX_JOBS", bool, "Run the background job loop in this process", "true"),
  defaultPlan: v("BRAINBOX_DEFAULT_PLAN", oneOf(...PLANS), "Plan of new accounts", "free"),
  ownerPlan: v("BRAINBOX_OWNER_PLAN", oneOf(...PLANS), "Plan of the first owner account", "team"),
  freeBank: v("BRAINBOX_FREE_BANK", int(0), "Lifetime questions of a Free account (v1 ask)", "100"),
  proQuota: v("BRAINBOX_PRO_QUOTA", int(0), "Questions per period of a Pro account (v1 ask)", "2000"),
  teamQuota: v("BRAINBOX_TEAM_QUOTA", int(0), "Questions per period of a Team account (v1 ask)", "10000"),
  quotaPeriod: v("BRAINBOX_QUOTA_PERIOD", oneOf("day", "week", "month"), "Period of the Pro/Team quota", "month"),
  dailyQuota: v("BRAINBOX_DAILY_QUOTA", int(0), "Unversioned-ask questions per account per UTC day", "200"),
  conversationTurns: v("BRAINBOX_CONVERSATION_TURNS", int(1, 50), "Earlier turns of a conversation a follow-up question is rewritten from (the newest ones)", "4"),
  rewriteTimeoutMs: v("BRAINBOX_REWRITE_TIMEOUT_MS", int(50), "Longest the model may take to rewrite a follow-up; then the extractive rewrite is used", "15000"),
  x402FacilitatorUrl: v("BRAINBOX_X402_FACILITATOR_URL", url, "x402 facilitator (verify/settle); required once a brain is paid"),
  x402Asset: v("BRAINBOX_X402_ASSET", str, "Token contract paid in (USDC on base)", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
  x402AssetName: v("BRAINBOX_X402_ASSET_NAME", str, "EIP-712 domain name of the token", "USD Coin"),
  x402AssetVersion: v("BRAINBOX_X402_ASSET_VERSION", str, "EIP-712 domain version of the token", "2"),
  x402MaxTimeoutSeconds: v("BRAINBOX_X402_MAX_TIMEOUT_SECONDS", int(10, 3600), "Validity window offered to payers", "300"),
  x402MaxPerCall: v("BRAINBOX_X402_MAX_PER_CALL", int(1), "Ceiling of any one quote, in atomic units", "1000000"),
  x402PayTo: v("BRAINBOX_X402_PAY_TO", str, "Wallet receiving payments for the app actions"),
  x402FacilitatorTimeoutMs: v("BRAINBOX_X402_FACILITATOR_TIMEOUT_MS", int(100), "Timeout of a facilitator verify (settle gets 4x)", "10000"),
  x402RpcUrl: v("BRAINBOX_X402_RPC_URL", url, "Base RPC node: the embedded facilitator's (with BRAINBOX_X402_GAS_PRIVATE_KEY), or, beside BRAINBOX_X402_FACILITATOR_URL, read-only to reconcile settlements whose reply was lost"),
  x402GasPrivateKey: v("BRAINBOX_X402_GAS_PRIVATE_KEY", str, "0x key paying settlement gas for the embedded facilitator"),
  x402GeoScanPricePerPage: v("BRAINBOX_X402_GEO_SCAN_PRICE_PER_PAGE", int(1), "geo/scan quote per page requested, atomic units", "5000"),
  x402SocialImagePricePerMegapixel: v("BRAINBOX_X402_SOCIAL_IMAGE_PRICE_PER_MEGAPIXEL", int(1), "social/image quote per megapixel, atomic units", "10000"),
  x402ClipsPricePerFrame: v("BRAINBOX_X402_CLIPS_PRICE_PER_FRAME", int(1), "clips/render quote per frame, atomic units", "1000"),
  x402ReconcileIntervalMs: v("BRAINBOX_X402_RECONCILE_INTERVAL_MS", int(0), "How often payments whose settlement is unknown are checked on chain (needs BRAINBOX_X402_RPC_URL); 0 = only on the payer's retry", "60000"),
  oauthAccessTtlSeconds: v("BRAINBOX_OAUTH_ACCESS_TTL_SECONDS", int(10, 2592000), "Lifetime of an OAuth access token (connectors)", "3600"),
  oauthRefreshTtlSeconds: v("BRAINBOX_OAUTH_REFRESH_TTL_SECONDS", int(60, 31536000), "Lifetime of an OAuth refresh token; each refresh rotates it", "2592000"),
  oauthCodeTtlSeconds: v("BRAINBOX_OAUTH_CODE_TTL_SECONDS", int(10, 600), "Lifetime of an OAuth authorization code (single use)", "60"),
  sessionIdleMinutes: v("BRAINBOX_SESSION_IDLE_MINUTES", int(1, 525600), "A person's session ends after this long without a request (the admin page's sign-in cookie)", "720"),
  sessionMaxHours: v("BRAINBOX_SESSION_MAX_HOURS", int(1, 8760), "A person's session ends this long after sign-in, however active", "168"),
  signInFreeFailures: v("BRAINBOX_SIGN_IN_FREE_FAILURES", int(1, 1000), "Failed sign-ins per email and address before each further one doubles the wait (per address alone: 4x as many); the right password from another address is never slowed", "5"),
  passwordLinkTtlHours: v("BRAINBOX_PASSWORD_LINK_TTL_HOURS", int(1, 720), "Lifetime of a one-time setup or password-reset link", "24"),
  auditRetentionDays: v("BRAINBOX_AUDIT_RETENTION_DAYS", int(1, 36500), "Audit events older than this many days are deleted", "365"),
  oidcIssuer: v("BRAINBOX_OIDC_ISSUER", issuerUrl, "Single sign-on: the OpenID Connect provider's issuer URL (discovery at ISSUER/.well-known/openid-configuration); unset = no single sign-on. https, or http on loopback only"),
  oidcClientId: v("BRAINBOX_OIDC_CLIENT_ID", str, "Single sign-on: this server's client id at the provider (redirect URI: PUBLIC_URL/auth/oidc/callback)"),
  oidcClientSecret: v("BRAINBOX_OIDC_CLIENT_SECRET", str, "Single sign-on: the client secret (unset = a public client, PKCE only)"),
  oidcScopes: v("BRAINBOX_OIDC_SCOPES", str, "Single sign-on: scopes asked for (must include openid)", "openid email profile"),
  oidcName: v("BRAINBOX_OIDC_NAME", str, "Single sign-on: the provider's name on the sign-in button (\"Sign in with NAME\")", "single sign-on"),
  oidcAllowedDomains: v("BRAINBOX_OIDC_ALLOWED_DOMAINS", list, "Single sign-on: email domains allowed to sign in (comma-separated; unset = any); set, a provider email must also be verified", ""),
  oidcAdminClaim: v("BRAINBOX_OIDC_ADMIN_CLAIM", str, "Single sign-on: the id_token/userinfo claim read by BRAINBOX_OIDC_ADMIN_VALUES", "groups"),
  oidcAdminValues: v("BRAINBOX_OIDC_ADMIN_VALUES", list, "Single sign-on: values of that claim that make a person a server admin at sign-in (unset = the provider grants no role)", ""),
  oidcStartsPerMinute: v("BRAINBOX_OIDC_STARTS_PER_MINUTE", int(1, 100000), "Single sign-on: sign-ins one client address may start per minute (429 above)", "60"),
  oidcTimeoutMs: v("BRAINBOX_OIDC_TIMEOUT_MS", int(100, 120000), "Single sign-on: deadline of each request to the provider (discovery, token, keys, userinfo)", "10000"),
  corsOrigins: v("BRAINBOX_CORS_ORIGINS", list, "Origins allowed to call the API from a browser (* = any; bearer auth only: the session cookie is never accepted cross-origin)", "*"),
  authFailuresPerMinute: v("BRAINBOX_AUTH_FAILURES_PER_MINUTE", int(1), "Failed authentications per minute, per client address and per credential, before 429 (valid credentials always pass)", "30"),
  trustedProxies: v("BRAINBOX_TRUSTED_PROXIES", parseCidrList, "Proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For/Forwarded names the client address", ""),
  smtpUrl: v("BRAINBOX_SMTP_URL", smtpUrl, "SMTP server invitations are mailed through, e.g. smtps://user:pass@mail.example.com:465 (unset = the link is only shown to the inviter)"),
  smtpFrom: v("BRAINBOX_SMTP_FROM", str, "From address of invitation mails", "Brainbox <brainbox@localhost>"),
  invitationTtlHours: v("BRAINBOX_INVITATION_TTL_HOURS", int(1, 8760), "How long an invitation link can be accepted (single use)", "168"),
  metricsToken: v("BRAINBOX_METRICS_TOKEN", str, "Bearer token required by /metrics (unset = open)"),
  logLevel: v("BRAINBOX_LOG_LEVEL", oneOf("debug", "info", "warn", "error"), "Log verbosity", "info"),
  // Read by `brainbox import`, a client of a server (maybe a remote one): not the server's own settings.
  importUrl: v("BRAINBOX_URL", url, "Server `brainbox import` posts to when --url is not given (unset = http://127.0.0.1:BRAINBOX_PORT)"),
  importApiKey: v("BRAINBOX_API_KEY", str, "API key `brainbox import` sends when --key is not given"),
  evalDir: v("BRAINBOX_EVAL_DIR", str, "Folder of the evaluation data sets `scripts/eval-*` read (the server ignores it)"),
};

type Vars = typeof vars;
type Parsed<K extends keyof Vars> = Vars[K] extends Var<infer T> ? T : never;
type Raw = { [K in keyof Vars]: Vars[K]["default"] extends string ? Parsed<K> : Parsed<K> | undefined };

export type Config = Omit<Raw, "modelsDir" | "publicUrl" | "dataDir"> & {
  dataDir: string;
  modelsDir: string;
  /** Explicit BRAINBOX_PUBLIC_URL; when absent the server derives it from the bound address. */
  publicUrl: string | undefined;
};

export const ENV_VARS: ReadonlyArray<{ name: string; help: string; default?: string }> = Object.values(vars);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** Reads every BRAINBOX_ variable, reporting all bad values at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(vars) as [string, Var<unknown>][]) {
    const raw = env[spec.name]?.trim() || spec.default;
    if (raw === undefined) continue;
    try {
      out[key] = spec.parse(raw);
    } catch (e) {
      problems.push(`${spec.name} ${(e as Error).message}`);
    }
  }
  const known = new Set(ENV_VARS.map((e) => e.name));
  for (const name of Object.keys(env))
    if (name.startsWith("BRAINBOX_") && !known.has(name)) problems.push(`${name} is not a known setting (see --help)`);
  if (out.s3Bucket && !(out.s3AccessKeyId && out.s3SecretAccessKey))
    problems.push("BRAINBOX_S3_BUCKET needs BRAINBOX_S3_ACCESS_KEY_ID and BRAINBOX_S3_SECRET_ACCESS_KEY");
  problems.push(...oidcProblems(out), ...modelServerProblems(out));
  if (problems.length) throw new ConfigError(problems);
  const dataDir = resolve(out.dataDir as string);
  return {
    ...(out as Raw),
    dataDir,
    modelsDir: resolve((out.modelsDir as string | undefined) ?? `${dataDir}/models`),
    publicUrl: out.publicUrl as string | undefined,
  };
}

/** One generation server at a time, and a remote server needs a model name (no server picks one for us). */
function modelServerProblems(out: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (out.llmUrl && out.ollamaUrl) problems.push("BRAINBOX_LLM_URL and BRAINBOX_OLLAMA_URL are both set: set one (BRAINBOX_LLM_PROVIDER=ollama for an Ollama at BRAINBOX_LLM_URL)");
  if (out.llmUrl && !out.llmModel && out.llmProvider !== "ollama") problems.push("BRAINBOX_LLM_URL needs BRAINBOX_LLM_MODEL (Azure: the deployment name)");
  if (!out.llmUrl && (out.llmModel || out.llmApiKey)) problems.push("BRAINBOX_LLM_MODEL and BRAINBOX_LLM_API_KEY need BRAINBOX_LLM_URL");
  if (out.embedUrl && !out.embedModel) problems.push("BRAINBOX_EMBED_URL needs BRAINBOX_EMBED_MODEL (the server's model name)");
  if (!out.embedUrl && out.embedApiKey) problems.push("BRAINBOX_EMBED_API_KEY needs BRAINBOX_EMBED_URL");
  return problems;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Single sign-on needs a client id, the openid scope, and an https issuer (http only on this machine). */
function oidcProblems(out: Record<string, unknown>): string[] {
  const issuer = out.oidcIssuer as string | undefined;
  if (!issuer) return out.oidcClientId ? ["BRAINBOX_OIDC_CLIENT_ID needs BRAINBOX_OIDC_ISSUER"] : [];
  const problems: string[] = [];
  if (!out.oidcClientId) problems.push("BRAINBOX_OIDC_ISSUER needs BRAINBOX_OIDC_CLIENT_ID");
  const { protocol, hostname } = new URL(issuer);
  if (protocol !== "https:" && !(protocol === "http:" && LOOPBACK_HOSTS.has(hostname)))
    problems.push(`BRAINBOX_OIDC_ISSUER must be https (http only on loopback), got "${issuer}"`);
  if (!String(out.oidcScopes ?? "").split(/\s+/).includes("openid")) problems.push("BRAINBOX_OIDC_SCOPES must include openid");
  return problems;
}
