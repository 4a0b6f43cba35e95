import { describe, expect, it } from "vitest";
import { count } from "./count.js";

describe("count", () => {
  it("uses the singular for exactly one", () => {
    expect(count(1, "file")).toBe("1 file");
    expect(count(1, "pending action")).toBe("1 pending action");
  });

  it("uses the plural for zero and for more than one", () => {
    expect(count(0, "file")).toBe("0 files");
    expect(count(3, "file")).toBe("3 files");
    expect(count(2, "replacement")).toBe("2 replacements");
  });

  it("takes an irregular plural", () => {
    expect(count(1, "child", "children")).toBe("1 child");
    expect(count(4, "child", "children")).toBe("4 children");
  });
});
