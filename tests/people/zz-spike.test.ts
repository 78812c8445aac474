import { test, expect } from "bun:test";
import * as client from "openid-client";
import { startOidcRig, CookieJar } from "../support/oidc-rig";
test("spike", async () => {
  const rig = await startOidcRig();
  const redirect = "http://127.0.0.1:9/cb";
  await rig.register(redirect);
  rig.users.set("u1", { sub: "u1", email: "a@x.org", email_verified: true, name: "A" });
  rig.nextUser = "u1";
  const config = await client.discovery(new URL(rig.issuer), rig.clientId, rig.clientSecret, undefined, { execute: [client.allowInsecureRequests], timeout: 5 });
  const verifier = client.randomPKCECodeVerifier(); const nonce = client.randomNonce(); const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirect, scope: "openid email profile", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, nonce });
  const jar = new CookieJar();
  let next = url.href; let cb = "";
  for (let i = 0; i < 10; i++) {
    const res = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res);
    const loc = res.headers.get("location");
    console.log(res.status, loc);
    if (!loc) { console.log(await res.text()); break; }
    next = new URL(loc, next).href;
    if (next.startsWith(redirect)) { cb = next; break; }
  }
  const tokens = await client.authorizationCodeGrant(config, new URL(cb), { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state });
  console.log(tokens.claims());
  const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
  console.log(info);
  await rig.close();
});
