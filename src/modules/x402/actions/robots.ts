// robots.txt as RFC 9309 reads it: groups of user-agent lines with allow/disallow rules; a crawler uses
// the group naming its product token (case-insensitive), else the `*` group; the longest matching rule
// wins and allow wins a tie; `*` matches any run of characters and a trailing `$` anchors the end.

export interface RobotsGroup {
  agents: string[];
  rules: Array<{ allow: boolean; pattern: string }>;
}

/** The answer-engine crawlers worth reporting on, with who runs them. */
export const AI_CRAWLERS: ReadonlyArray<{ name: string; operator: string; purpose: string }> = [
  { name: "GPTBot", operator: "OpenAI", purpose: "training" },
  { name: "OAI-SearchBot", operator: "OpenAI", purpose: "search answers" },
  { name: "ChatGPT-User", operator: "OpenAI", purpose: "live browsing" },
  { name: "ClaudeBot", operator: "Anthropic", purpose: "training" },
  { name: "Claude-User", operator: "Anthropic", purpose: "live browsing" },
  { name: "PerplexityBot", operator: "Perplexity", purpose: "search answers" },
  { name: "Google-Extended", operator: "Google", purpose: "Gemini grounding and training" },
  { name: "Applebot-Extended", operator: "Apple", purpose: "Apple Intelligence training" },
  { name: "CCBot", operator: "Common Crawl", purpose: "open web corpus" },
];

export function parseRobots(text: string): RobotsGroup[] {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const field = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (field === "user-agent") {
      // Consecutive user-agent lines share one group; one after rules starts the next.
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if ((field === "allow" || field === "disallow") && current) {
      // An empty Disallow allows everything: it adds no rule.
      if (value !== "") current.rules.push({ allow: field === "allow", pattern: value });
      lastWasAgent = false;
    } else {
      lastWasAgent = false;
    }
  }
  return groups;
}

/** May `agent` fetch `path` (path plus query)? */
export function isAllowed(groups: RobotsGroup[], agent: string, path: string): { allowed: boolean; rule: string | null; group: string | null } {
  const token = agent.toLowerCase();
  const named = groups.filter((g) => g.agents.includes(token));
  const chosen = named.length > 0 ? named : groups.filter((g) => g.agents.includes("*"));
  if (chosen.length === 0) return { allowed: true, rule: null, group: null };
  let best: { allowed: boolean; length: number; rule: string } | null = null;
  for (const rule of chosen.flatMap((g) => g.rules)) {
    if (!patternMatches(rule.pattern, path)) continue;
    const length = rule.pattern.length;
    if (!best || length > best.length || (length === best.length && rule.allow && !best.allowed)) {
      best = { allowed: rule.allow, length, rule: `${rule.allow ? "Allow" : "Disallow"}: ${rule.pattern}` };
    }
  }
  return { allowed: best?.allowed ?? true, rule: best?.rule ?? null, group: named.length > 0 ? agent : "*" };
}

function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const regex = body
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const re = new RegExp(`^${regex}${anchored ? "$" : ""}`);
  return re.test(path) || re.test(safeDecode(path));
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
