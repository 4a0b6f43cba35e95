/**
 * The offset of the first character that makes `text` invalid JSON (at the end of the text
 * when it ends too early), or `undefined` when it is valid. Node's `JSON.parse` message says
 * what is wrong but not where (Node 20), so a malformed JSON file a tool imports gets the
 * location esbuild would give it.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (at: number): never => {
    throw new JsonError(at);
  };
  const space = () => {
    while (offset < text.length && " \t\n\r".includes(text[offset] as string)) offset += 1;
  };
  const literal = (word: string) => {
    for (const character of word) {
      if (text[offset] !== character) fail(offset);
      offset += 1;
    }
  };
  const string = () => {
    offset += 1; // the opening quote
    while (offset < text.length) {
      const character = text[offset] as string;
      if (character === '"') {
        offset += 1;
        return;
      }
      if (character < " ") fail(offset);
      if (character === "\\") {
        const escaped = text[offset + 1];
        if (escaped === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(offset + 2, offset + 6))) fail(offset);
          offset += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail(offset);
        offset += 2;
        continue;
      }
      offset += 1;
    }
    fail(offset);
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(offset));
    if (match === null) fail(offset);
    offset += (match as RegExpExecArray)[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail(offset);
    space();
    const character = text[offset];
    if (character === "{") members(depth, "}", true);
    else if (character === "[") members(depth, "]", false);
    else if (character === '"') string();
    else if (character === "t") literal("true");
    else if (character === "f") literal("false");
    else if (character === "n") literal("null");
    else if (character === "-" || (character !== undefined && character >= "0" && character <= "9")) number();
    else fail(offset);
  };
  const members = (depth: number, close: string, keyed: boolean): void => {
    offset += 1;
    space();
    if (text[offset] === close) {
      offset += 1;
      return;
    }
    for (;;) {
      if (keyed) {
        space();
        if (text[offset] !== '"') fail(offset);
        string();
        space();
        if (text[offset] !== ":") fail(offset);
        offset += 1;
      }
      value(depth + 1);
      space();
      if (text[offset] === ",") {
        offset += 1;
        continue;
      }
      if (text[offset] === close) {
        offset += 1;
        return;
      }
      fail(offset);
    }
  };
  try {
    value(0);
    space();
    if (offset < text.length) fail(offset);
    return undefined;
  } catch (error) {
    if (error instanceof JsonError) return error.offset;
    throw error;
  }
}

class JsonError {
  constructor(readonly offset: number) {}
}
