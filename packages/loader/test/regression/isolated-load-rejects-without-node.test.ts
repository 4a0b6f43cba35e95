import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project } from "../isolation/isolation-helpers.js";

// On Bun the tool host runs under `node` from PATH; a machine without one (a Bun-only
// container) made every isolated load reject with Bun's "Executable not found in $PATH:
// "node"" (Node: "spawn node ENOENT"), and `tooldock validate` end in an internal error.
describe("an isolated load whose Node binary cannot be run", () => {
  it("is one E_TOOL_HOST that names the binary and says what to do, not a rejected load", async () => {
    const where = await project({ "plain.ts": attackModule("return 'ok';") });
    const missing = join(where.root, "no-such-node");
    const { tools, diagnostics } = await load(where, { mode: "process", execPath: missing });
    expect(tools).toEqual([]);
    expect(diagnostics.map(({ code }) => code)).toEqual(["E_TOOL_HOST"]);
    expect(diagnostics[0]?.message).toContain(`It could not start: ${missing} could not be run`);
    expect(diagnostics[0]?.hint).toMatch(/Node 20\.11 or later.*isolation\.execPath/);
  });

  it("says what to do when the binary is no Node (Bun's version answer)", async () => {
    const where = await project({ "plain.ts": attackModule("return 'ok';") });
    const bun = join(where.root, "bun");
    await writeFile(bun, "#!/bin/sh\necho 1.4.5\n", { mode: 0o755 });
    const { tools, diagnostics } = await load(where, { mode: "process", execPath: bun });
    expect(tools).toEqual([]);
    expect(diagnostics.map(({ code }) => code)).toEqual(["E_TOOL_HOST"]);
    expect(diagnostics[0]?.message).toContain("Node 1.4.5 has no usable permission model");
    expect(diagnostics[0]?.hint).toMatch(/Node 20\.11 or later.*isolation\.execPath/);
  });
});
