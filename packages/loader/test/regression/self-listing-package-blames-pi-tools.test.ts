import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { discoverToolModules } from "../../src/index.js";

// Found by a helper reading discovery: a package whose manifest listed its own folder was told
// it did so in "<field>.tools", whichever key listed it (a pi extension, an oh-my-pi feature
// or install entry), so its author looked for the mistake where there was none.
let root = "";
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-self-listing-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it.each([
  [{ pi: { extensions: ["."] } }, ".", "pi.extensions"],
  [{ omp: { features: { all: { default: true, tools: "./" } } } }, "./", "omp.features.all.tools"],
  [{ omp: { install: [{ src: ".", dest: "agent/tools/self" }] } }, ".", "omp.install"],
  [{ pi: { tools: "." } }, ".", "pi.tools"],
])("a package listing itself through %j is told the key that lists it", async (manifest, entry, key) => {
  await mkdir(join(root, "self"));
  await writeFile(join(root, "self", "package.json"), JSON.stringify({ name: "self", ...manifest }));
  const { diagnostics } = await discoverToolModules({ paths: ["self"], cwd: root });
  expect(diagnostics.map(({ code, message }) => [code, message])).toEqual([
    ["E_DISCOVERY", `Package ${join(root, "self")} lists itself ("${entry}") in "${key}".`],
  ]);
});
