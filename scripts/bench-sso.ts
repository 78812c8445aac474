// Single sign-on cost, side by side in one run, with the provider's metadata and keys cached (as after the
// first sign-in): Brainbox's start (a flow row and a redirect), the provider's own hops (oidc-provider on
// loopback: not ours), and Brainbox's callback (the flow taken, the code exchanged, the id_token verified,
// userinfo, the person found, the session opened), beside a password sign-in (argon2id) as the baseline,
// and a request authenticated by the resulting session cookie beside one by an API key.
// Usage: bun scripts/bench-sso.ts [sign-ins=40]
import { CookieJar } from "../tests/support/oidc-rig";
import { followProvider, startSsoPair } from "../tests/people/oidc-support";
import { newPerson, signIn } from "../tests/people/support";

const rounds = Number(process.argv[2] ?? 40);
const { s, rig } = await startSsoPair({ BRAINBOX_OIDC_STARTS_PER_MINUTE: "100000" });
rig.users.set("bench-1", { sub: "bench-1", email: "bench@example.org", email_verified: true, name: "Bench" });
rig.nextUser = "bench-1";
const person = await newPerson(s.ctx.db, "pw@example.org", "correct horse battery", "Pw");

const times: Record<string, number[]> = { start: [], provider: [], callback: [], total: [], password: [], "session GET": [], "key GET": [] };
const clock = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const out = await run();
  times[name]!.push(performance.now() - t);
  return out;
};

async function expectOk(res: Response): Promise<void> {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

let cookie = "";
for (let i = 0; i < rounds + 3; i++) {
  const jar = new CookieJar();
  const t0 = performance.now();
  const start = await clock("start", () => fetch(`${s.url}/auth/oidc/start`, { redirect: "manual" }));
  jar.take(start);
  const callback = await clock("provider", () => followProvider(rig, start.headers.get("location")!, s.url));
  const done = await clock("callback", () => fetch(callback, { redirect: "manual", headers: { cookie: jar.header() } }));
  if (done.status !== 303) throw new Error(`sign-in failed: ${done.status} ${await done.text()}`);
  times.total!.push(performance.now() - t0);
  jar.take(done);
  cookie = `bb_session=${jar.get("bb_session")}`;
  const pw = await clock("password", () => signIn(s, "pw@example.org", "correct horse battery"));
  if (pw.status !== 201) throw new Error(`password sign-in failed: ${pw.status}`);
}
for (let i = 0; i < rounds * 10; i++) {
  await clock("session GET", () => fetch(`${s.url}/api/v1/brains`, { headers: { cookie } }).then(expectOk));
  await clock("key GET", () => fetch(`${s.url}/api/v1/brains`, { headers: { authorization: `Bearer ${person.key}` } }).then(expectOk));
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
console.log(`single sign-on, ${rounds} sign-ins after 3 warm-ups (discovery and keys cached); ms`);
for (const [name, xs] of Object.entries(times)) {
  const kept = name.endsWith("GET") ? xs : xs.slice(3);
  console.log(`${name.padEnd(12)} p50 ${pct(kept, 50).toFixed(2).padStart(7)}  p95 ${pct(kept, 95).toFixed(2).padStart(7)}  (n=${kept.length})`);
}
await s.close();
await rig.close();
