// Attack: `@tooldock/cli` depended on the private `@tooldock/examples` (the demo's tools), so
// `npm install @tooldock/cli` could never resolve from the registry. Now the demo's tools are
// copied into the CLI package at build time (dist/demo-tools) and no runtime dependency of a
// public package is private.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packagesDir = fileURLToPath(new URL("../../../", import.meta.url));

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifests: Manifest[] = readdirSync(packagesDir).map(
  (folder) => JSON.parse(readFileSync(join(packagesDir, folder, "package.json"), "utf8")) as Manifest,
);
const byName = new Map(manifests.map((manifest) => [manifest.name, manifest]));

describe("public packages depend only on public packages", () => {
  for (const manifest of manifests.filter((candidate) => candidate.private !== true)) {
    it(`${manifest.name} has no private workspace package among its runtime dependencies`, () => {
      const runtime = {
        ...manifest.dependencies,
        ...manifest.peerDependencies,
        ...manifest.optionalDependencies,
      };
      const privateOnes = Object.keys(runtime).filter((name) => byName.get(name)?.private === true);
      expect(privateOnes).toEqual([]);
    });
  }

  it("covers the CLI", () => {
    expect(byName.get("@tooldock/cli")?.private).not.toBe(true);
  });
});
