// People: sign-in and sessions, first-run setup and password links, the server admin's people list.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { passwordLinkRoutes, peopleAdminRoutes } from "./people-routes";
import { sessionRoutes } from "./session-routes";

export { openSession, sessionResolver } from "./sessions";

export const peopleRoutes = (ctx: AppContext) => new Elysia().use(sessionRoutes(ctx)).use(peopleAdminRoutes(ctx)).use(passwordLinkRoutes(ctx));
