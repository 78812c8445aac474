// API keys of the caller's account: create (shown once), list (no secrets), revoke.
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "./guard";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import { createKeyBody, newKeyResponse } from "./model";
import { clientAddressOf } from "../../http/client-address";
import { recordAudit } from "../audit/record";
import { checkKeyPolicy } from "../teams/key-policy";
import type { Principal } from "./keys";

const actorOf = (principal: Principal, request: Request) => ({
  actorId: principal.account.id,
  actorLabel: principal.account.email ?? principal.account.name,
  ip: clientAddressOf(request),
});

export const apiKeyRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/user/api-keys", detail: { tags: ["API keys"] } })
    .use(authGuard(ctx))
    // Create a key; the response is the only time the full key is ever shown.
    .post(
      "",
      async ({ principal, body, set, request }) => {
        set.status = 201;
        const expiresAt = body.expiresAt === undefined ? null : Date.parse(body.expiresAt);
        await checkKeyPolicy(ctx.db, principal.account.id, { readOnly: body.readOnly ?? false, expiresAt });
        const key = await createApiKey(ctx.db, principal.account.id, body.name.trim(), { readOnly: body.readOnly, expiresAt });
        await recordAudit(ctx.db, { action: "key.created", ...actorOf(principal, request), target: { kind: "api_key", id: key.id }, details: { name: key.name, hint: key.hint, readOnly: key.readOnly } }, ctx.log);
        return key;
      },
      { body: createKeyBody, response: { 201: newKeyResponse } },
    )
    // List the account's keys without their secrets.
    .get("", async ({ principal }) => ({ apiKeys: await listApiKeys(ctx.db, principal.account.id) }))
    // Revoke a key: it answers 401 from then on.
    .delete(
      "/:keyId",
      async ({ principal, params, set, request }) => {
        await revokeApiKey(ctx.db, principal.account.id, params.keyId);
        await recordAudit(ctx.db, { action: "key.revoked", ...actorOf(principal, request), target: { kind: "api_key", id: params.keyId } }, ctx.log);
        set.status = 204;
      },
      { params: t.Object({ keyId: t.String() }) },
    );
