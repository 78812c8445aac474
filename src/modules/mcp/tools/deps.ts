// What every tool module needs: the app context and the call's context.
import type { AppContext } from "../../../context";
import type { CallContext } from "../call-context";

export interface ToolDeps {
  ctx: AppContext;
  call: CallContext;
}

/** The caller's account; tools offered only in account mode can rely on it. */
export function principalOf(call: CallContext) {
  if (!call.principal) throw new Error("account-mode tool called without a principal");
  return call.principal;
}
