import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pruneStaleOutputs } from "./prune-stale-outputs.mjs";

let root: string | undefined;

afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

async function files(entries: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "tooldock-prune-"));
  for (const [path, text] of Object.entries(entries)) {
    await mkdir(join(folder, path, ".."), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  return folder;
}

const map = (source: string) => JSON.stringify({ version: 3, sources: [source], mappings: "" });

describe("pruneStaleOutputs", () => {
  it("removes the outputs of a source that moved, keeps those of sources that are there and bundles", async () => {
    root = await files({
      "packages/cli/src/output/reserve-stdout.ts": "",
      // Moved from mcp/ to output/: tsc wrote the new outputs and left the old ones.
      "packages/cli/dist/mcp/reserve-stdout.js": "",
      "packages/cli/dist/mcp/reserve-stdout.js.map": map("../../src/mcp/reserve-stdout.ts"),
      "packages/cli/dist/mcp/reserve-stdout.d.ts": "",
      "packages/cli/dist/mcp/reserve-stdout.d.ts.map": map("../../src/mcp/reserve-stdout.ts"),
      "packages/cli/dist/output/reserve-stdout.js": "",
      "packages/cli/dist/output/reserve-stdout.js.map": map("../../src/output/reserve-stdout.ts"),
      // A bundle names many sources, some of them gone: left alone.
      "packages/cli/dist/bundle/bin.js": "",
      "packages/cli/dist/bundle/bin.js.map": JSON.stringify({
        version: 3,
        sources: ["../../src/gone.ts", "../../src/output/reserve-stdout.ts"],
        mappings: "",
      }),
    });
    expect(pruneStaleOutputs(root).sort()).toEqual([
      "packages/cli/dist/mcp/reserve-stdout.d.ts",
      "packages/cli/dist/mcp/reserve-stdout.d.ts.map",
      "packages/cli/dist/mcp/reserve-stdout.js",
      "packages/cli/dist/mcp/reserve-stdout.js.map",
    ]);
    expect(existsSync(join(root, "packages/cli/dist/output/reserve-stdout.js"))).toBe(true);
    expect(existsSync(join(root, "packages/cli/dist/bundle/bin.js"))).toBe(true);
    expect(pruneStaleOutputs(root)).toEqual([]);
  });

  it("leaves a map whose source lies outside the package's src, and one that is not JSON", async () => {
    root = await files({
      "packages/sdk/dist/a.js": "",
      "packages/sdk/dist/a.js.map": map("../../../elsewhere/a.ts"),
      "packages/sdk/dist/b.js": "",
      "packages/sdk/dist/b.js.map": "not json",
    });
    expect(pruneStaleOutputs(root)).toEqual([]);
  });
});
