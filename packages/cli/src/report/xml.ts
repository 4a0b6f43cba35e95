// biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 forbids
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Escapes text for an XML attribute or element; drops characters XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(FORBIDDEN, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `name="value"` pairs, escaped, in the given order. */
export function xmlAttributes(attributes: Record<string, string | number>): string {
  return Object.entries(attributes)
    .map(([name, value]) => `${name}="${escapeXml(String(value))}"`)
    .join(" ");
}
