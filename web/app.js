// Brainbox admin page: ES modules loaded as they are (no framework, no build step, nothing from the internet).
//
// Safety rules kept in every module:
// - text from the API or the user goes into the page only through textContent / DOM APIs (`h()` in
//   lib/dom.js), never through innerHTML, so a brain or source called `<img src=x onerror=…>` is shown as text;
// - HTML from the API (wiki pages, sanitized by the server) is parsed inert with DOMParser and copied
//   node by node through an allow-list before it touches the page (lib/markdown.js; defence in depth, with
//   the CSP);
// - the API key lives in sessionStorage: this tab only, gone when it closes (lib/api.js).
//
// Layout: lib/ holds the shared modules (api.js: the API client; dom.js: DOM helpers; format.js; forms.js:
// errors in plain words; markdown.js; router.js), screens/ one module per screen or tab, shell.js the
// navigation, routes and sign-in. Extension points: NAV and ROUTES (shell.js), BRAIN_TABS (screens/brain.js)
// and BRAIN_SETTINGS_SECTIONS (screens/settings.js). A screen is `async (view, params, signal)`.
import { start } from "./shell.js";

start();
