import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ensureHostModules, hostModuleSource } from "../../src/compile/host-modules.js";
import { testCacheDir } from "../helpers.js";

/**
 * Attack: the stand-in of a package whose importer lacks names is the virtual module
 * `<package>?missing=<names>`. A tool importing such a specifier itself (with text that is no
 * name: quotes, spaces, a comment end) made the stand-in export whatever that text held, or fail to
 * parse. Fixed: only identifiers are taken from the path.
 */
describe("a stand-in path with odd missing names", () => {
  it("exports only the identifiers, and still parses", async () => {
    await ensureHostModules(["@mariozechner/pi-tui"]);
    const source = hostModuleSource('@mariozechner/pi-tui?missing=ok,no way,"x",*/,Text');
    const dir = testCacheDir("odd-missing");
    await mkdir(dir, { recursive: true });
    const file = join(dir, "stand-in.mjs");
    await writeFile(file, source);
    const served = await import(/* @vite-ignore */ pathToFileURL(file).href);
    expect("ok" in served && served.ok).toBeUndefined();
    expect(Object.keys(served)).not.toContain("no way");
    expect(typeof served.Text).toBe("function"); // a name the stand-in has is not replaced
  });
});
