import { describe, expect, it } from "vitest";
import { quoted } from "./quoted.js";

describe("quoted", () => {
  it("wraps text in double quotes, and text that holds one in curly quotes", () => {
    expect(quoted("Write a.txt")).toBe('"Write a.txt"');
    expect(quoted('Rename 2 files: "draft-" → ""')).toBe('“Rename 2 files: "draft-" → ""”');
    expect(quoted("")).toBe('""');
  });
});
