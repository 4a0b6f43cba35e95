import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as TypeBox from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ensureHostModules, hostModuleSource, registerHostModule } from "../../src/compile/host-modules.js";
import { testCacheDir } from "../helpers.js";

// Bug: TypeBox exports a `Symbol` builder. The virtual module re-exported it as a local
// binding and then read `Symbol.for(...)`, which hit TypeBox's export instead of the global:
// "Cannot read properties of undefined (reading 'for')" for every tool importing TypeBox.
describe("the host module served to compiled tools", () => {
  it("re-exports TypeBox (whose exports include Symbol) as the host's own objects", async () => {
    await ensureHostModules(["@sinclair/typebox"]);
    const dir = testCacheDir("host-module");
    await mkdir(dir, { recursive: true });
    const file = join(dir, "typebox.mjs");
    await writeFile(file, hostModuleSource("@sinclair/typebox"));
    const served = await import(/* @vite-ignore */ pathToFileURL(file).href);
    expect(served.Symbol).toBe(TypeBox.Symbol);
    expect(served.Type).toBe(TypeBox.Type);
  });

  it("keeps the first copy registered in the process", () => {
    const first = registerHostModule("@sinclair/typebox", TypeBox);
    expect(registerHostModule("@sinclair/typebox", { Type: "another copy" })).toBe(first);
  });
});
