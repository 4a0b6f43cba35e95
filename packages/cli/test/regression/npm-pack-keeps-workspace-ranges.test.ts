// Attack: `npm pack` of a package kept `"@tooldock/sdk": "workspace:*"`, and the tarball then
// failed to install outside the repo with no useful message. `pnpm release:pack`
// (scripts/release-pack.mjs) writes the tarballs with those ranges rewritten to real versions;
// here, on every public manifest, and the shape the registry needs. The release rehearsal
// (test/release-rehearsal.e2e.test.ts) installs the real tarballs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  publishedRange,
  rewriteWorkspaceRanges,
  workspacePackages,
} from "../../../../scripts/release-pack.mjs";

const packages = await workspacePackages();
const versions = new Map(packages.map((pkg) => [pkg.name, pkg.version]));
const publicPackages = packages.filter((pkg) => pkg.manifest.private !== true);

describe("release manifests", () => {
  it("knows the six public packages", () => {
    expect(publicPackages.map((pkg) => pkg.name).sort()).toEqual([
      "@tooldock/ai-sdk",
      "@tooldock/ast-edit",
      "@tooldock/cli",
      "@tooldock/loader",
      "@tooldock/runtime",
      "@tooldock/sdk",
    ]);
  });

  for (const pkg of publicPackages) {
    it(`${pkg.name}: no workspace: range survives packing`, () => {
      const published = JSON.stringify(rewriteWorkspaceRanges(pkg.manifest, versions));
      expect(published).not.toContain("workspace:");
      for (const [name, range] of Object.entries(pkg.manifest.dependencies ?? {})) {
        if (String(range).startsWith("workspace:")) {
          expect(JSON.parse(published).dependencies[name]).toBe(versions.get(name));
        }
      }
    });

    it(`${pkg.name}: ships a LICENSE and a CHANGELOG whose first entry is the current version`, () => {
      expect(existsSync(join(pkg.directory, "LICENSE"))).toBe(true);
      const changelog = readFileSync(join(pkg.directory, "CHANGELOG.md"), "utf8");
      expect(changelog.startsWith(`# ${pkg.name}\n\n## ${pkg.version}\n`)).toBe(true);
    });

    it(`${pkg.name}: is shaped for the registry`, () => {
      const { manifest } = pkg;
      expect(manifest.files).toEqual(
        expect.arrayContaining(["dist", "README.md", "LICENSE", "CHANGELOG.md"]),
      );
      expect(manifest.repository).toMatchObject({
        type: "git",
        directory: `packages/${pkg.directory.split(/[\\/]/).pop()}`,
      });
      expect(manifest.engines).toEqual({ node: ">=20.11" });
      expect(manifest.publishConfig).toEqual({ access: "public" });
      expect(manifest.license).toBe("MIT");
      for (const [entry, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
        if (typeof target === "object" && target !== null) {
          expect(Object.keys(target)[0], `${entry}: "types" comes first`).toBe("types");
        }
      }
    });
  }

  it("rewrites each workspace protocol form", () => {
    expect(publishedRange("*", "1.2.3")).toBe("1.2.3");
    expect(publishedRange("^", "1.2.3")).toBe("^1.2.3");
    expect(publishedRange("~", "1.2.3")).toBe("~1.2.3");
    expect(publishedRange("^1.0.0", "1.2.3")).toBe("^1.0.0");
  });

  it("refuses a workspace: range on a package that is not in the workspace", () => {
    const manifest = { name: "x", version: "1.0.0", dependencies: { "@tooldock/nope": "workspace:*" } };
    expect(() => rewriteWorkspaceRanges(manifest, versions)).toThrow(
      /no workspace package is named @tooldock\/nope/,
    );
  });
});
