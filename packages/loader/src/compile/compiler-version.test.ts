import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { esbuildVersion } from "./compiler-version.js";

describe("esbuildVersion", () => {
  it("reads the version of the esbuild the loader depends on, without importing it", () => {
    const require = createRequire(import.meta.url);
    const main = require.resolve("esbuild");
    const manifest = JSON.parse(readFileSync(join(dirname(main), "..", "package.json"), "utf8")) as {
      version: string;
    };
    expect(esbuildVersion()).toBe(manifest.version);
    expect(esbuildVersion()).not.toBe("unknown");
  });
});
