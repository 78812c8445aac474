// Builds the Elysia app from the feature plugins, all sharing one AppContext.
import { acceptInvitationRoutes, invitationRoutes, invitationSignUpRoutes } from "./modules/invitations";
import { shareRoutes } from "./modules/shares";
import { teamRoutes } from "./modules/teams";
import { Elysia } from "elysia";
import type { AppContext } from "./context";
import { decodablePaths, httpErrors, jsonBodies } from "./http/errors";
import { accountRoutes } from "./modules/accounts";
import { answerRoutes } from "./modules/answer";
import { askHistoryRoutes } from "./modules/asks";
import { conversationRoutes } from "./modules/conversations";
import { apiKeyRoutes } from "./modules/auth";
import { brainSetRoutes } from "./modules/brain-sets";
import { brainSetAskRoutes } from "./modules/brain-sets/ask";
import { brainRoutes } from "./modules/brains";
import { connectorRoutes } from "./modules/connectors";
import { docsRoutes } from "./modules/docs";
import { healthRoutes } from "./modules/health";
import { planMeter } from "./modules/plans/meter";
import { mcpRoutes } from "./modules/mcp";
import { metricsRoutes } from "./modules/metrics";
import { oauthRoutes } from "./modules/oauth";
import { peopleRoutes } from "./modules/people";
import { auditRoutes } from "./modules/audit";
import { sourceRoutes } from "./modules/sources";
import { ssoRoutes } from "./modules/sso";
import { webRoutes } from "./modules/web";
import { wikiRoutes } from "./modules/wiki";
import { browserPageLinks } from "./modules/wiki/browser-links";
import { webhookRoutes } from "./modules/webhooks";
import { backupRoutes } from "./modules/backups";
import { vaultRoutes } from "./modules/vault";

// Route groups in their own plugins (sign-in and keys; teams and shares; backups and vault export/import):
// one chain of every feature is deeper than TypeScript instantiates.
const identityRoutes = (ctx: AppContext) =>
  new Elysia().use(apiKeyRoutes(ctx)).use(peopleRoutes(ctx)).use(auditRoutes(ctx)).use(ssoRoutes(ctx)).use(accountRoutes(ctx));
const teamworkRoutes = (ctx: AppContext) =>
  new Elysia().use(teamRoutes(ctx)).use(shareRoutes(ctx)).use(invitationSignUpRoutes(ctx)).use(acceptInvitationRoutes(ctx)).use(invitationRoutes(ctx));
const portabilityRoutes = (ctx: AppContext) => new Elysia().use(backupRoutes(ctx)).use(vaultRoutes(ctx));
import { x402Routes } from "./modules/x402";
import { paymentRoutes } from "./modules/payments";

export function buildApp(ctx: AppContext) {
  return new Elysia()
    .use(httpErrors(ctx.log, ctx.database.storage))
    .use(jsonBodies(ctx.config.maxBodyBytes))
    .use(decodablePaths())
    .use(browserPageLinks())
    .use(docsRoutes(ctx.version))
    .use(healthRoutes(ctx))
    .use(metricsRoutes(ctx))
    .use(identityRoutes(ctx))
    .use(brainRoutes(ctx))
    .use(sourceRoutes(ctx))
    .use(connectorRoutes(ctx))
    .use(answerRoutes(ctx, { meter: planMeter(ctx) }))
    .use(wikiRoutes(ctx))
    .use(askHistoryRoutes(ctx))
    .use(conversationRoutes(ctx))
    .use(brainSetRoutes(ctx))
    .use(brainSetAskRoutes(ctx))
    .use(teamworkRoutes(ctx))
    .use(x402Routes(ctx))
    .use(paymentRoutes(ctx))
    .use(oauthRoutes(ctx))
    .use(webhookRoutes(ctx))
    .use(portabilityRoutes(ctx))
    .use(mcpRoutes(ctx))
    .use(webRoutes({ connectOrigins: [ctx.config.s3Endpoint, ctx.config.publicUrl].filter((o): o is string => Boolean(o)) }));
}

export type App = ReturnType<typeof buildApp>;
