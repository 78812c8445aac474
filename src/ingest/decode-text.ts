import { charsetOf } from "./detect-type.ts";

/**
 * Bytes to string: a BOM wins, then the Content-Type charset, then (for HTML) a <meta> charset in
 * the first bytes, else UTF-8. Unknown labels fall back to UTF-8 rather than failing the document.
 */
export function decodeText(bytes: Uint8Array, contentType: string, options: { html?: boolean } = {}): string {
  const label = bomCharset(bytes) ?? charsetOf(contentType) ?? (options.html ? metaCharset(bytes) : undefined) ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase();
}
