// biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 forbids
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

// Allowed in XML 1.0 but run by a terminal when the report is printed: written as character references.
const TERMINAL_CONTROLS = /[\r\u007f-\u009f]/g;

/**
 * Escapes text for an XML attribute or element; drops characters XML 1.0 cannot carry (ESC
 * among them) and writes CR, DEL and the C1 controls as character references, so the report
 * never carries a raw terminal control sequence.
 */
export function escapeXml(text: string): string {
  return text
    .replace(FORBIDDEN, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(TERMINAL_CONTROLS, (character) => `&#x${character.charCodeAt(0).toString(16)};`);
}

/** `name="value"` pairs, escaped, in the given order; undefined values are left out. */
export function xmlAttributes(attributes: Record<string, string | number | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${escapeXml(String(value))}"`)
    .join(" ");
}
