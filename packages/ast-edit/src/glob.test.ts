import { describe, expect, it } from "vitest";
import { createGlobMatcher } from "./glob.js";

describe("createGlobMatcher", () => {
  it("matches base names when the glob has no slash", () => {
    const matches = createGlobMatcher("*.tsx");
    expect(matches("src/deep/view.tsx")).toBe(true);
    expect(matches("view.tsx")).toBe(true);
    expect(matches("src/view.ts")).toBe(false);
  });

  it("matches whole relative paths when the glob has a slash", () => {
    const matches = createGlobMatcher("src/*.ts");
    expect(matches("src/a.ts")).toBe(true);
    expect(matches("src/deep/a.ts")).toBe(false);
    expect(matches("lib/src/a.ts")).toBe(false);
  });

  it("lets ** cross any number of directories, including none", () => {
    const matches = createGlobMatcher("src/**/*.test.ts");
    expect(matches("src/a.test.ts")).toBe(true);
    expect(matches("src/x/y/a.test.ts")).toBe(true);
    expect(matches("src/x/a.ts")).toBe(false);
  });

  it("supports alternatives, ? and character classes", () => {
    expect(createGlobMatcher("*.{ts,tsx}")("a/b.tsx")).toBe(true);
    expect(createGlobMatcher("*.{ts,tsx}")("a/b.js")).toBe(false);
    expect(createGlobMatcher("file?.ts")("file1.ts")).toBe(true);
    expect(createGlobMatcher("file[0-2].ts")("file3.ts")).toBe(false);
    expect(createGlobMatcher("file[!0-2].ts")("file3.ts")).toBe(true);
  });

  it("treats regular expression characters literally and ignores a leading ./", () => {
    expect(createGlobMatcher("./src/a+b.ts")("src/a+b.ts")).toBe(true);
    expect(createGlobMatcher("src/a+b.ts")("src/aab.ts")).toBe(false);
  });
});
