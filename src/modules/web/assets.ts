// Every file of the admin page, imported `with { type: "file" }` so `bun build --compile` embeds it (an import
// is the file's path: on disk in development, inside the executable once compiled). A new module of the page
// must be added here; tests/web/assets.test.ts fails when a file under web/ is not served.
import indexHtml from "../../../web/index.html" with { type: "file" };
import appCss from "../../../web/app.css" with { type: "file" };
import favicon from "../../../web/favicon.svg" with { type: "file" };
// The graph library, from npm (node_modules), served from this server: nothing comes from the internet.
import cytoscape from "../../../node_modules/cytoscape/dist/cytoscape.esm.min.mjs" with { type: "file" };
import appJs from "../../../web/app.js" with { type: "file" };
import shellJs from "../../../web/shell.js" with { type: "file" };
import libApiJs from "../../../web/lib/api.js" with { type: "file" };
import libDomJs from "../../../web/lib/dom.js" with { type: "file" };
import libFormatJs from "../../../web/lib/format.js" with { type: "file" };
import libDownloadJs from "../../../web/lib/download.js" with { type: "file" };
import libFormsJs from "../../../web/lib/forms.js" with { type: "file" };
import libMarkdownJs from "../../../web/lib/markdown.js" with { type: "file" };
import libRouterJs from "../../../web/lib/router.js" with { type: "file" };
import screensAccountJs from "../../../web/screens/account.js" with { type: "file" };
import screensAddSourceJs from "../../../web/screens/add-source.js" with { type: "file" };
import screensAnswerJs from "../../../web/screens/answer.js" with { type: "file" };
import screensAskJs from "../../../web/screens/ask.js" with { type: "file" };
import screensBrainJs from "../../../web/screens/brain.js" with { type: "file" };
import screensBrainsJs from "../../../web/screens/brains.js" with { type: "file" };
import screensCitePanelJs from "../../../web/screens/cite-panel.js" with { type: "file" };
import screensConversationsJs from "../../../web/screens/conversations.js" with { type: "file" };
import screensConnectorFormJs from "../../../web/screens/connector-form.js" with { type: "file" };
import screensConnectorsJs from "../../../web/screens/connectors.js" with { type: "file" };
import screensContextJs from "../../../web/screens/context.js" with { type: "file" };
import screensGraphJs from "../../../web/screens/graph.js" with { type: "file" };
import screensKeysJs from "../../../web/screens/keys.js" with { type: "file" };
import screensPaidJs from "../../../web/screens/paid.js" with { type: "file" };
import screensPaymentsJs from "../../../web/screens/payments.js" with { type: "file" };
import screensSetsJs from "../../../web/screens/sets.js" with { type: "file" };
import screensSettingsJs from "../../../web/screens/settings.js" with { type: "file" };
import screensSetupJs from "../../../web/screens/setup.js" with { type: "file" };
import screensPeopleAdminJs from "../../../web/screens/people-admin.js" with { type: "file" };
import screensSignInJs from "../../../web/screens/sign-in.js" with { type: "file" };
import screensShareJs from "../../../web/screens/share.js" with { type: "file" };
import screensTeamJs from "../../../web/screens/team.js" with { type: "file" };
import screensInvitationJs from "../../../web/screens/invitation.js" with { type: "file" };
import screensAuditJs from "../../../web/screens/audit.js" with { type: "file" };
import screensBackupsJs from "../../../web/screens/backups.js" with { type: "file" };
import screensSsoButtonJs from "../../../web/screens/sso-button.js" with { type: "file" };
import screensWebhooksJs from "../../../web/screens/webhooks.js" with { type: "file" };
import screensVaultJs from "../../../web/screens/vault.js" with { type: "file" };
import screensSourcesJs from "../../../web/screens/sources.js" with { type: "file" };
import screensWikiEditorJs from "../../../web/screens/wiki-editor.js" with { type: "file" };
import screensWikiJs from "../../../web/screens/wiki.js" with { type: "file" };

const JS = "text/javascript; charset=utf-8";

/** URL path → embedded file and content type. The page loads its modules from /assets/ by relative imports. */
export const ASSET_FILES: Record<string, { file: string; type: string; page?: boolean }> = {
  "/": { file: indexHtml as unknown as string, type: "text/html; charset=utf-8", page: true },
  // The first-run setup and password-reset links open the same page (it reads ?token=).
  "/setup": { file: indexHtml as unknown as string, type: "text/html; charset=utf-8", page: true },
  "/assets/app.css": { file: appCss, type: "text/css; charset=utf-8" },
  "/favicon.svg": { file: favicon, type: "image/svg+xml" },
  "/assets/vendor/cytoscape.esm.js": { file: cytoscape, type: JS },
  "/assets/app.js": { file: appJs, type: JS },
  "/assets/shell.js": { file: shellJs, type: JS },
  "/assets/lib/api.js": { file: libApiJs, type: JS },
  "/assets/lib/dom.js": { file: libDomJs, type: JS },
  "/assets/lib/format.js": { file: libFormatJs, type: JS },
  "/assets/lib/download.js": { file: libDownloadJs, type: JS },
  "/assets/lib/forms.js": { file: libFormsJs, type: JS },
  "/assets/lib/markdown.js": { file: libMarkdownJs, type: JS },
  "/assets/lib/router.js": { file: libRouterJs, type: JS },
  "/assets/screens/account.js": { file: screensAccountJs, type: JS },
  "/assets/screens/add-source.js": { file: screensAddSourceJs, type: JS },
  "/assets/screens/answer.js": { file: screensAnswerJs, type: JS },
  "/assets/screens/ask.js": { file: screensAskJs, type: JS },
  "/assets/screens/brain.js": { file: screensBrainJs, type: JS },
  "/assets/screens/brains.js": { file: screensBrainsJs, type: JS },
  "/assets/screens/cite-panel.js": { file: screensCitePanelJs, type: JS },
  "/assets/screens/conversations.js": { file: screensConversationsJs, type: JS },
  "/assets/screens/connector-form.js": { file: screensConnectorFormJs, type: JS },
  "/assets/screens/connectors.js": { file: screensConnectorsJs, type: JS },
  "/assets/screens/context.js": { file: screensContextJs, type: JS },
  "/assets/screens/graph.js": { file: screensGraphJs, type: JS },
  "/assets/screens/keys.js": { file: screensKeysJs, type: JS },
  "/assets/screens/paid.js": { file: screensPaidJs, type: JS },
  "/assets/screens/payments.js": { file: screensPaymentsJs, type: JS },
  "/assets/screens/sets.js": { file: screensSetsJs, type: JS },
  "/assets/screens/settings.js": { file: screensSettingsJs, type: JS },
  "/assets/screens/setup.js": { file: screensSetupJs, type: JS },
  "/assets/screens/people-admin.js": { file: screensPeopleAdminJs, type: JS },
  "/assets/screens/sign-in.js": { file: screensSignInJs, type: JS },
  "/assets/screens/share.js": { file: screensShareJs, type: JS },
  "/assets/screens/team.js": { file: screensTeamJs, type: JS },
  "/assets/screens/invitation.js": { file: screensInvitationJs, type: JS },
  "/assets/screens/audit.js": { file: screensAuditJs, type: JS },
  "/assets/screens/backups.js": { file: screensBackupsJs, type: JS },
  "/assets/screens/sso-button.js": { file: screensSsoButtonJs, type: JS },
  "/assets/screens/webhooks.js": { file: screensWebhooksJs, type: JS },
  "/assets/screens/vault.js": { file: screensVaultJs, type: JS },
  "/assets/screens/sources.js": { file: screensSourcesJs, type: JS },
  "/assets/screens/wiki-editor.js": { file: screensWikiEditorJs, type: JS },
  "/assets/screens/wiki.js": { file: screensWikiJs, type: JS },
};
