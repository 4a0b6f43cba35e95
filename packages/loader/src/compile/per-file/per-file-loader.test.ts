import { describe, expect, it } from "vitest";
import { loadOxcTransform } from "./per-file-loader.js";

const SETTINGS = { defineClassFields: true, onlyRemoveTypeImports: false };
const SOURCE = "export const answer: number = 42;\n";

describe("loadOxcTransform", () => {
  it("makes no source map while the process has source maps off: Node would never read it", async () => {
    const transform = await loadOxcTransform();
    if (transform === undefined) throw new Error("oxc-transform is a dependency: it must load");
    const before = process.sourceMapsEnabled;
    try {
      process.setSourceMapsEnabled(false);
      const off = await transform("/tools/answer.ts", SOURCE, SETTINGS);
      process.setSourceMapsEnabled(true);
      const on = await transform("/tools/answer.ts", SOURCE, SETTINGS);
      expect(off).toEqual({ code: expect.stringContaining("export const answer = 42"), map: undefined });
      expect(on?.code).toBe(off?.code);
      expect(on?.map).toMatchObject({ sources: ["file:///tools/answer.ts"] });
    } finally {
      process.setSourceMapsEnabled(before);
    }
  });
});
