import { type ParseError, parse } from "jsonc-parser";

/**
 * The offset of the first fault that makes `text` invalid JSON, or `undefined`: Node 20's
 * `JSON.parse` message says what is wrong but not where, which esbuild would give. `jsonc-parser`
 * with what JSONC adds to JSON (comments, trailing commas) turned off.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const errors: ParseError[] = [];
  parse(text.slice(bom), errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  return first === undefined ? undefined : first.offset + bom;
}
