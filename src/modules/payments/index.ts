// Owners see their money: the x402 payments for their brains (and, for an admin, the app actions), with
// totals per period. Account mode only (Bearer API key or OAuth token).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { brainParams, paymentsQuery } from "./model";
import { listAccountPayments, listBrainPayments } from "./service";

export type { OwnerPayment, PaymentsPage, PeriodTotals } from "./model";

export const paymentRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["x402"] } })
    .use(authGuard(ctx, "account:read"))
    .get("/api/v1/payments", ({ principal, query }) => listAccountPayments(ctx.db, principal.account, query), {
      query: paymentsQuery,
      detail: { summary: "Payments received on the paid rail for your brains (admin: also the app actions), with totals" },
    })
    .get("/api/v1/brains/:brainId/payments", ({ principal, params, query }) => listBrainPayments(ctx.db, principal.account.id, params.brainId, query), {
      params: brainParams,
      query: paymentsQuery,
      detail: { summary: "Payments received for one of your brains, with totals" },
    });
