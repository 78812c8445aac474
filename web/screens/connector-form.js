// "Add a connector": one form whose fields follow the kind chosen (a website, a feed, the brain's links, a Git
// repository, a server folder). Secrets (a header value, a Git token) are typed into a password field and never
// shown again (the server answers "set"). A 422 naming `config.<key>` marks the form field that holds it.
import { API, api } from "../lib/api.js";
import { announce, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit } from "../lib/forms.js";

const lines = (text) => String(text ?? "").split(/\n/).map((l) => l.trim()).filter(Boolean);
const commaList = (fd, name) => String(fd.get(name) ?? "").split(",").map((p) => p.trim()).filter(Boolean);
const text = (fd, name) => String(fd.get(name) ?? "").trim();
const number = (fd, name) => (String(fd.get(name) ?? "").trim() ? Number(fd.get(name)) : undefined);

/** The fields of each kind, and how a filled form becomes its config. */
const KINDS = {
  website: {
    label: "Website",
    fields: () => [
      field("Start URLs", h("textarea", { name: "startUrls", rows: "2", placeholder: "https://example.com/docs/" }), "One a line; links are followed on the same site", "wide"),
      field("Sitemap", h("input", { type: "url", name: "sitemap", placeholder: "https://example.com/sitemap.xml" }), "Optional; a sitemap index works too", "wide"),
      field("Only paths", h("input", { type: "text", name: "include", placeholder: "/docs/*" }), "Patterns, comma-separated"),
      field("Skip paths", h("input", { type: "text", name: "exclude", placeholder: "/blog/*" }), "Patterns, comma-separated"),
      field("Max pages", h("input", { type: "number", name: "maxPages", min: "1", max: "50000", placeholder: "1000" })),
      field("Max depth", h("input", { type: "number", name: "maxDepth", min: "0", max: "50", placeholder: "5" })),
      field("Header name", h("input", { type: "text", name: "headerName", placeholder: "Authorization" }), "For a site behind a login"),
      field("Header value", h("input", { type: "password", name: "headerValue", autocomplete: "off" }), "Stored encrypted, never shown again"),
      h("label", { class: "check wide" }, h("input", { type: "checkbox", name: "keep" }), " Keep pages that vanish from the site"),
    ],
    config(fd) {
      const list = (name) => commaList(fd, name);
      const config = { startUrls: lines(fd.get("startUrls")) };
      if (String(fd.get("sitemap") ?? "").trim()) config.sitemap = String(fd.get("sitemap")).trim();
      if (!config.startUrls.length) delete config.startUrls;
      if (list("include").length) config.include = list("include");
      if (list("exclude").length) config.exclude = list("exclude");
      if (number(fd, "maxPages") !== undefined) config.maxPages = number(fd, "maxPages");
      if (number(fd, "maxDepth") !== undefined) config.maxDepth = number(fd, "maxDepth");
      if (fd.get("keep")) config.prune = false;
      const name = String(fd.get("headerName") ?? "").trim();
      if (name) config.headers = { [name]: String(fd.get("headerValue") ?? "") };
      return config;
    },
    fieldOf: (key) => (key === "headers" ? "headerName" : key),
  },
  feed: {
    label: "Feed (RSS or Atom)",
    fields: () => [field("Feed URL", h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/releases.xml" }), "Each new entry's article becomes a source", "wide")],
    config: (fd) => ({ url: String(fd.get("url") ?? "").trim() }),
  },
  links: {
    label: "This brain's links",
    fields: () => [h("p", { class: "muted small wide" }, "Re-reads every link source of this brain on the schedule; a page that changed is processed again.")],
    config: () => ({}),
  },
  git: {
    label: "Git repository",
    fields: () => [
      field("Repository", h("input", { type: "text", name: "repository", required: true, placeholder: "https://example.com/team/handbook.git" }), "An https URL, or the path of a repository on the server", "wide"),
      field("Branch", h("input", { type: "text", name: "branch", placeholder: "main" })),
      field("Token", h("input", { type: "password", name: "token", autocomplete: "off" }), "For a private https repository; stored encrypted, never shown again"),
      field("Only files", h("input", { type: "text", name: "include", placeholder: "docs/**/*.md" }), "Patterns, comma-separated; Markdown, AsciiDoc, text and HTML by default"),
      field("Skip files", h("input", { type: "text", name: "exclude", placeholder: "drafts/**" }), "Patterns, comma-separated"),
      field("File page URL", h("input", { type: "text", name: "webUrl", placeholder: "https://example.com/team/handbook/blob/{branch}/{path}" }), "Optional; where a file is shown on the forge, with {path} and {branch}", "wide"),
    ],
    config(fd) {
      const repository = text(fd, "repository");
      // A server path starts with "/"; anything else is the URL of a repository to clone.
      const config = repository.startsWith("/") ? { path: repository } : { url: repository };
      if (text(fd, "branch")) config.branch = text(fd, "branch");
      if (commaList(fd, "include").length) config.include = commaList(fd, "include");
      if (commaList(fd, "exclude").length) config.exclude = commaList(fd, "exclude");
      if (text(fd, "webUrl")) config.webUrl = text(fd, "webUrl");
      if (text(fd, "token")) config.token = text(fd, "token");
      return config;
    },
    fieldOf: (key) => (key === "url" || key === "path" ? "repository" : key),
  },
  folder: {
    label: "Server folder",
    fields: () => [
      field("Folder path", h("input", { type: "text", name: "path", required: true, placeholder: "/srv/shares/handbook" }), "A folder on the server, under the folders the operator allowed", "wide"),
      field("Only files", h("input", { type: "text", name: "include", placeholder: "**/*.md" }), "Patterns, comma-separated; Markdown, AsciiDoc, text and HTML by default"),
      field("Skip files", h("input", { type: "text", name: "exclude", placeholder: "archive/**" }), "Patterns, comma-separated"),
    ],
    config(fd) {
      const config = { path: text(fd, "path") };
      if (commaList(fd, "include").length) config.include = commaList(fd, "include");
      if (commaList(fd, "exclude").length) config.exclude = commaList(fd, "exclude");
      return config;
    },
    fieldOf: (key) => key,
  },
};

const SCHEDULES = [
  ["manual", "Only when I press Sync now"],
  ["every 1h", "Every hour"],
  ["every 6h", "Every 6 hours"],
  ["every 1d", "Every day"],
  ["0 3 * * 1", "Mondays at 03:00"],
];

export function addConnectorCard(brain, signal, onAdded) {
  const box = errorBox();
  const kindFields = h("div", { class: "form-grid wide" });
  const kind = h("select", { name: "kind" }, Object.entries(KINDS).map(([id, k]) => h("option", { value: id }, k.label)));
  const showKind = () => fill(kindFields, KINDS[kind.value].fields());
  kind.addEventListener("change", showKind);
  showKind();
  const form = h(
    "form",
    { class: "form-grid", "aria-label": "Add a connector" },
    field("Kind", kind),
    field("Name", h("input", { type: "text", name: "name", required: true, maxlength: "200", placeholder: "Team handbook" })),
    field("Schedule", h("select", { name: "schedule" }, SCHEDULES.map(([v, label]) => h("option", { value: v }, label)))),
    kindFields,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Add connector")),
    h("div", { class: "wide" }, box),
  );
  onSubmit(form, box, async (fd) => {
    const body = { kind: kind.value, name: String(fd.get("name")).trim(), schedule: fd.get("schedule"), config: KINDS[kind.value].config(fd) };
    let connector;
    try {
      ({ connector } = await api(API.connectors(brain.id), { method: "POST", json: body, signal }));
    } catch (e) {
      // "config.startUrls[0]" names the form's "startUrls" field; each kind says which field holds a config key.
      if (typeof e.field === "string" && e.field.startsWith("config.")) e.field = (KINDS[kind.value].fieldOf ?? ((k) => k))(e.field.slice(7).replace(/[[.].*$/, ""));
      throw e;
    }
    form.reset();
    showKind();
    announce(`Connector “${connector.name}” added`);
    onAdded(connector);
  });
  return h("section", { class: "card stack", "aria-labelledby": "add-connector" }, h("h2", { id: "add-connector" }, "Add a connector"), form);
}
