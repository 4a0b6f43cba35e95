// Found by a review: a package that lists its own folder got the hint `"tools": ["./index.ts"]`
// whichever key listed it, so a pi extension package (`"pi": { "extensions": ["."] }`), an
// oh-my-pi feature or an `install` entry was told to use a key it did not write. The hint now
// shows the key that listed the folder, with the package's own tool file in it.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { discoverToolModules } from "../../src/discover/discover-tool-modules.js";

let root = "";
const packages: Record<string, object> = {
  extension: { pi: { extensions: ["."] } },
  tools: { tooldock: { tools: "./" } },
  feature: { omp: { features: { search: { default: true, tools: "." } } } },
  install: { omp: { install: [{ src: ".", dest: "agent/tools/search" }] } },
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-self-listing-"));
  for (const [name, manifest] of Object.entries(packages)) {
    await mkdir(join(root, name));
    await writeFile(join(root, name, "package.json"), JSON.stringify(manifest));
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

it("self-listing-hint-names-tools: the hint of a package that lists itself names the key that did", async () => {
  const { diagnostics } = await discoverToolModules({ paths: Object.keys(packages), cwd: root });
  expect(diagnostics.map(({ message, hint }) => [message.replaceAll(root, "<root>"), hint])).toEqual([
    [
      'Package <root>/extension lists itself (".") in "pi.extensions".',
      'List the package\'s tool files instead, e.g. "pi": { "extensions": ["./index.ts"] }.',
    ],
    [
      'Package <root>/tools lists itself ("./") in "tooldock.tools".',
      'List the package\'s tool files instead, e.g. "tooldock": { "tools": ["./index.ts"] }.',
    ],
    [
      'Package <root>/feature lists itself (".") in "omp.features.search.tools".',
      'List the package\'s tool files instead, e.g. "omp": { "features": { "search": { "default": true, "tools": ["./index.ts"] } } }.',
    ],
    [
      'Package <root>/install lists itself (".") in "omp.install".',
      'List the package\'s tool files instead, e.g. "omp": { "install": [{ "src": "./index.ts", "dest": "agent/tools/name/index.ts" }] }.',
    ],
  ]);
});
