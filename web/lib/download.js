// Downloads of what the API answers as a file (a backup's tar, a brain's vault zip). Signed in by the
// session cookie, the link is followed by the browser itself: the file streams to disk whatever its size.
// Signed in by a key, a plain link would carry no credential (the key lives in this tab's sessionStorage,
// not in a cookie), so the file is fetched with the key and handed to the browser as a blob.
import { api, session } from "./api.js";
import { announce, h } from "./dom.js";

/** A download link; a failure (the API's error) goes to `onError`. */
export function downloadLink(href, label, { filename, ariaLabel, onError, signal, cls = "button secondary" }) {
  const link = h("a", { href, download: filename, class: cls, "aria-label": ariaLabel }, label);
  link.addEventListener("click", async (ev) => {
    if (!session.key) return announce(`Downloading ${filename}`);
    ev.preventDefault();
    try {
      const res = await api(href, { raw: true, signal, headers: { accept: "*/*" } });
      saveBlob(await res.blob(), filenameOf(res) ?? filename);
      announce(`Downloaded ${filename}`);
    } catch (e) {
      if (e?.name !== "AbortError") onError(e);
    }
  });
  return link;
}

function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the blob once the click is handled; free it a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The name the server gives in Content-Disposition, when it gives one. */
function filenameOf(res) {
  const m = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "");
  return m ? m[1] : null;
}
