import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project } from "../isolation/isolation-helpers.js";

// An isolated load builds its tool host's packs while the tool host starts. When the start
// failed at once (a binary that is no usable Node), the load returned with `cached` already
// settled while those packs were still being written: a host that removed its cache folder
// once `cached` settled failed (ENOTEMPTY), as the suite's own cleanup did now and then.
// `cached` now settles once the packs are written.
it("an isolated load whose tool host failed to start settles cached after its packs", async () => {
  // Enough modules that their packs take longer to build than the start takes to fail.
  const files: Record<string, string> = {};
  for (let at = 0; at < 40; at += 1) files[`plain_${at}.ts`] = attackModule(`return 'ok ${at}';`);
  const where = await project(files);
  const bun = join(where.root, "bun");
  await writeFile(bun, "#!/bin/sh\necho 1.4.5\n", { mode: 0o755 });
  const result = await load(where, { mode: "process", execPath: bun });
  expect(result.diagnostics.map(({ code }) => code)).toEqual(["E_TOOL_HOST"]);

  await result.cached;
  const packs = join(where.root, "cache", "tool-host-packs");
  const [key] = await readdir(packs);
  const written = await readdir(join(packs, key as string), { recursive: true });
  expect(written.filter((name) => name.startsWith("bundles/") && name.endsWith(".mjs"))).not.toEqual([]);
});
