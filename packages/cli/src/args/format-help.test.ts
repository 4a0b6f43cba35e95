import { describe, expect, it } from "vitest";
import { wrap } from "./format-help.js";

describe("wrap", () => {
  it("breaks at spaces without exceeding the width", () => {
    expect(wrap("one two three four", 9)).toEqual(["one two", "three", "four"]);
  });

  it("keeps a word longer than the width on its own line", () => {
    expect(wrap("a verylongword b", 5)).toEqual(["a", "verylongword", "b"]);
  });
});
