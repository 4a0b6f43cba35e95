import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project } from "../isolation/isolation-helpers.js";

// Found pointing TOOLDOCK_CACHE_DIR at a folder others can write: in-process, the load says
// W_CACHE_UNSAFE (someone else could have put code there) and reads nothing from it; an
// isolated load (validate's default) gave the tool host no access to its cache in that folder,
// and the tool host then said W_CACHE_UNWRITABLE, "Make <cache>/tool-host/… writable": a
// fix that does not help (the folder is writable; the sandbox refused it) for the wrong problem.
describe("an isolated load whose cache folder others can write", () => {
  it("says W_CACHE_UNSAFE naming the folder, not that its tool host cannot write", async () => {
    const where = await project({ "plain.ts": attackModule("return 'ok';") });
    const shared = join(where.root, "shared-cache");
    await mkdir(shared);
    await chmod(shared, 0o777);
    const { tools, diagnostics } = await load(where, "process", { cacheDir: shared });
    expect(tools.map(({ tool }) => tool.name)).toEqual(["attack"]);
    expect(diagnostics.map(({ code }) => code)).toEqual(["W_CACHE_UNSAFE"]);
    expect(diagnostics[0]?.message).toContain(`The compile cache ${shared} is writable by group or others`);
    expect(diagnostics[0]?.hint).toContain(`rm -rf ${shared}`);
  });
});
