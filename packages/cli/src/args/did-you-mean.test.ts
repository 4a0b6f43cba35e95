import { describe, expect, it } from "vitest";
import { closestMatch, didYouMean, editDistance } from "./did-you-mean.js";

const COMMANDS = ["list", "validate", "call", "schema", "init", "demo", "mcp"];

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swaps as one edit each", () => {
    expect(editDistance("validate", "validate")).toBe(0);
    expect(editDistance("valdiate", "validate")).toBe(1);
    expect(editDistance("lst", "list")).toBe(1);
    expect(editDistance("lisst", "list")).toBe(1);
    expect(editDistance("lost", "list")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });
});

describe("closestMatch", () => {
  it("suggests the command a typo meant", () => {
    expect(closestMatch("valdiate", COMMANDS)).toBe("validate");
    expect(closestMatch("lsit", COMMANDS)).toBe("list");
    expect(closestMatch("Schema", COMMANDS)).toBe("schema");
    expect(closestMatch("strcit", ["tools", "strict", "format"])).toBe("strict");
  });

  it("suggests the only candidate a prefix names", () => {
    expect(closestMatch("val", COMMANDS)).toBe("validate");
    expect(closestMatch("isolate-t", ["isolate", "isolate-timeout", "isolate-memory"])).toBe(
      "isolate-timeout",
    );
  });

  it("suggests nothing for input that is not close to any candidate", () => {
    expect(closestMatch("frobnicate", COMMANDS)).toBeUndefined();
    expect(closestMatch("x", COMMANDS)).toBeUndefined();
  });
});

describe("didYouMean", () => {
  it("formats the suggestion, or gives an empty string", () => {
    expect(didYouMean("valdiate", COMMANDS, (name) => `"${name}"`)).toBe('; did you mean "validate"?');
    expect(didYouMean("frobnicate", COMMANDS)).toBe("");
  });
});
