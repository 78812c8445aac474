// The current screen's lifetime (its abort signal and timers), and re-rendering. Screens import this; the
// shell owns the routes and installs the render function.
export const state = { controller: new AbortController(), timers: new Set(), focusOnRender: false };

/** Ends the current screen (aborts its requests, stops its timers) and returns the new screen's signal. */
export function nextScreen() {
  state.controller.abort();
  for (const t of state.timers) clearInterval(t);
  state.controller = new AbortController();
  state.timers = new Set();
  return state.controller.signal;
}

/** Runs `fn` every `ms` until the screen changes; returns a stop function. */
export function every(ms, fn) {
  const id = setInterval(fn, ms);
  state.timers.add(id);
  return () => {
    clearInterval(id);
    state.timers.delete(id);
  };
}

let renderFn = () => {};
export const setRender = (fn) => (renderFn = fn);
/** Draws the current route again; `focus` moves focus to its heading (after a navigation). */
export function rerender(focus = false) {
  state.focusOnRender = focus;
  return renderFn();
}

/** The route path after `#`, without its `?query`. */
export function currentPath() {
  const hash = location.hash;
  if (!hash.startsWith("#/")) return "/";
  return hash.slice(1).split("?")[0];
}
/** The `?query` of the hash route (e.g. `#/brains/x/wiki?source=src_1`). */
export function routeQuery() {
  const i = location.hash.indexOf("?");
  return new URLSearchParams(i === -1 ? "" : location.hash.slice(i + 1));
}
