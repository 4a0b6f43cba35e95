import { type ParseError, parse } from "jsonc-parser";

/**
 * The offset of the first fault that makes `text` invalid JSON (at the end of the text when it
 * ends too early; at the start of a string that holds a bad escape or a raw line break), or
 * `undefined` when it is valid. Node's `JSON.parse` message says what is wrong but not where
 * (Node 20), so a malformed JSON file a tool imports gets a location as esbuild would give it.
 * `jsonc-parser` with what JSONC adds to JSON turned off (comments, trailing commas).
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
