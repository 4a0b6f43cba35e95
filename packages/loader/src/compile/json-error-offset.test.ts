import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "./import-failure.js";

describe("jsonErrorOffset", () => {
  it("is undefined for valid JSON, also after a byte order mark", () => {
    expect(jsonErrorOffset('{ "a": [1, 2.5e3, "x\\u00e9", true, null] }\n')).toBeUndefined();
    expect(jsonErrorOffset('\uFEFF{ "a": 1 }')).toBeUndefined();
  });

  it("points at the token where a value, a name or a separator was expected", () => {
    const text = '{\n  "name": "parity",\n  "broken": ,\n}\n';
    expect(jsonErrorOffset(text)).toBe(text.indexOf(" ,") + 1);
    expect(jsonErrorOffset('{ "a": 1, }')).toBe(10); // trailing comma: the brace
    expect(jsonErrorOffset('{ "a" 1 }')).toBe(6);
    expect(jsonErrorOffset("[1 2]")).toBe(3);
  });

  it("refuses what JSONC allows: comments, words and single quotes", () => {
    expect(jsonErrorOffset('{ "a": 1 } // note')).toBe(11);
    expect(jsonErrorOffset("{ 'a': 1 }")).toBe(2);
    expect(jsonErrorOffset('{ "a": NaN }')).toBe(7);
  });

  it("points at the end of a text that stops early", () => {
    expect(jsonErrorOffset('{ "a": [1')).toBe(9);
    expect(jsonErrorOffset("")).toBe(0);
  });

  it("points at the string that holds a bad escape or a raw line break", () => {
    expect(jsonErrorOffset('{ "a": "x\\q" }')).toBe(7);
    expect(jsonErrorOffset('{ "a": "x\ny" }')).toBe(7);
    expect(jsonErrorOffset('\uFEFF{ "a": "x\ny" }')).toBe(8);
  });
});
