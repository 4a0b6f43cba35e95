/** Throws on any byte sequence that is not UTF-8 and keeps a byte order mark as U+FEFF. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The text of `bytes`, or `undefined` when they are not valid UTF-8. A valid text encodes
 * back to the same bytes (a byte order mark included), so the parts of a file a rewrite does
 * not touch are written back byte for byte.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
