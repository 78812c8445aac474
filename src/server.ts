// Builds the Elysia app from the feature plugins, all sharing one AppContext.
import { Elysia } from "elysia";
import type { AppContext } from "./context";
import { decodablePaths, httpErrors, jsonBodies } from "./http/errors";
import { accountRoutes } from "./modules/accounts";
import { answerRoutes } from "./modules/answer";
import { askHistoryRoutes } from "./modules/asks";
import { apiKeyRoutes } from "./modules/auth";
import { brainSetRoutes } from "./modules/brain-sets";
import { brainSetAskRoutes } from "./modules/brain-sets/ask";
import { brainRoutes } from "./modules/brains";
import { docsRoutes } from "./modules/docs";
import { healthRoutes } from "./modules/health";
import { planMeter } from "./modules/plans/meter";
import { mcpRoutes } from "./modules/mcp";
import { metricsRoutes } from "./modules/metrics";
import { oauthRoutes } from "./modules/oauth";
import { sourceRoutes } from "./modules/sources";
import { webRoutes } from "./modules/web";
import { wikiRoutes } from "./modules/wiki";
import { webhookRoutes } from "./modules/webhooks";
import { x402Routes } from "./modules/x402";
import { paymentRoutes } from "./modules/payments";

export function buildApp(ctx: AppContext) {
  return new Elysia()
    .use(httpErrors(ctx.log, ctx.database.storage))
    .use(jsonBodies(ctx.config.maxBodyBytes))
    .use(decodablePaths())
    .use(docsRoutes(ctx.version))
    .use(healthRoutes(ctx))
    .use(metricsRoutes(ctx))
    .use(apiKeyRoutes(ctx))
    .use(accountRoutes(ctx))
    .use(brainRoutes(ctx))
    .use(sourceRoutes(ctx))
    .use(answerRoutes(ctx, { meter: planMeter(ctx) }))
    .use(wikiRoutes(ctx))
    .use(askHistoryRoutes(ctx))
    .use(brainSetRoutes(ctx))
    .use(brainSetAskRoutes(ctx))
    .use(x402Routes(ctx))
    .use(paymentRoutes(ctx))
    .use(oauthRoutes(ctx))
    .use(webhookRoutes(ctx))
    .use(mcpRoutes(ctx))
    .use(webRoutes({ connectOrigins: [ctx.config.s3Endpoint, ctx.config.publicUrl].filter((o): o is string => Boolean(o)) }));
}

export type App = ReturnType<typeof buildApp>;
