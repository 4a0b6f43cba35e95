import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

/**
 * A one-shot host (`tooldock call --isolate`, a test) closes its tool host as soon as it has
 * its answer, and closing kills the process group. The tool host wrote its packs' code caches
 * in a later turn of its event loop than the one that reported its tools, so a host that
 * closed at once killed it before the write (now and then, on a busy machine: the suite's
 * `prebuilt-packs` flake), and every later start of that tool host compiled its packs again.
 * The caches are now written before the tool host reports its tools.
 */
it("a tool host closed as soon as it reported its tools has written its code caches", async () => {
  const files: Record<string, string> = {};
  for (const name of ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]) {
    files[`${name}/index.ts`] = `
      import { Type } from "@sinclair/typebox";
      export default () => ({
        name: ${JSON.stringify(name)},
        label: ${JSON.stringify(name)},
        description: "Answers",
        parameters: Type.Object({}),
        async execute() { return { content: [{ type: "text", text: ${JSON.stringify(name)} }] }; },
      });
    `;
  }
  const where = await project(files);
  const { isolated, diagnostics } = await load(where, "process");
  // Nothing runs between the load's end and the kill: no turn of this loop, no message read.
  const closed = isolated?.close();
  const cache = join(where.root, "cache", "tool-host");
  const [own] = readdirSync(cache);
  await closed;
  expect(diagnostics).toEqual([]);
  const folder = join(cache, own as string, "code");
  const written = readdirSync(folder).filter((name) => name.endsWith(".code"));
  expect(written.length).toBeGreaterThan(0);
});
