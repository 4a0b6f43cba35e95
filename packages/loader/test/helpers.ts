import { randomBytes } from "node:crypto";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CustomTool, CustomToolContext } from "@tooldock/sdk";

/** Root of the fixture folders: the `cwd` of fixture loads and `<cwd>` in snapshots. */
export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

/**
 * A fresh cache directory for a test run. It lives under `node_modules/.cache` like the
 * default, which also makes vitest import the bundles natively instead of transforming them.
 */
export function testCacheDir(label: string): string {
  return join(
    dirname(fileURLToPath(import.meta.url)),
    "..",
    "node_modules",
    ".cache",
    "tooldock-test",
    `${label}-${randomBytes(4).toString("hex")}`,
  );
}

/** A scratch copy of a fixture (for tests that edit files), also under `node_modules/.cache`. */
export async function scratchCopy(fixture: string): Promise<string> {
  const target = join(testCacheDir("scratch"), fixture);
  await mkdir(dirname(target), { recursive: true });
  await cp(join(fixturesDir, fixture), target, { recursive: true });
  return target;
}

/** Replaces absolute paths in a value with `<cwd>` (the fixtures folder) for snapshots. */
export function rewritePaths<T>(value: T, cwd: string = fixturesDir): T {
  return JSON.parse(JSON.stringify(value).split(cwd).join("<cwd>")) as T;
}

/** A tool context for calling `execute` directly. */
export function fakeContext(cwd: string = fixturesDir): CustomToolContext {
  return {
    sessionId: "test",
    cwd,
    hasPendingActions: () => false,
    abort: () => {},
    pushPendingAction: () => {},
  };
}

/**
 * The files, as V8 names them, the stack of the error `tool` throws runs through: the
 * generated files (a pack, a bundle), not the `.ts` sources a source map would name. A
 * user-set `Error.prepareStackTrace` gets the raw call sites, before Node's source maps.
 */
export async function generatedStackFiles(tool: CustomTool | undefined, cwd: string): Promise<string[]> {
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, sites) => sites.map((site) => site.getFileName() ?? "");
  try {
    const error = await Promise.resolve(tool?.execute("1", {} as never, undefined, fakeContext(cwd))).catch(
      (thrown: unknown) => thrown,
    );
    return (error as { stack: string[] }).stack;
  } finally {
    Error.prepareStackTrace = previous;
  }
}

/** A module with one well-formed tool named `name`. */
export function goodModule(name: string): string {
  return `export default (pi) => ({
  name: ${JSON.stringify(name)},
  label: ${JSON.stringify(name)},
  description: "A tool that does nothing wrong.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "ok" }] };
  },
});
`;
}

/**
 * The entry of a built workspace package (`pnpm build`), for a host script run in a process
 * of its own: `builtEntry("loader")` is `packages/loader/dist/index.js`.
 */
export function builtEntry(name: string): string {
  return fileURLToPath(new URL(`../../${name}/dist/index.js`, import.meta.url));
}

/** A tool named `throws` whose call throws at line 7 of its file (the tests find that line in stacks). */
export const THROWING_TOOL = `interface Reason { text: string }
export default (pi: any) => ({
  name: "throws", label: "Throws", description: "Throws when called.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    const reason: Reason = { text: "thrown from a packed tool" };
    throw new Error(reason.text);
  },
});
`;

/** A tool named `package` that answers with `value` of the package `fixture-pkg` (see {@link writeFixturePackage}). */
export const PACKAGE_TOOL = `import { value } from "fixture-pkg";
export default (pi: any) => ({
  name: "package", label: "Package", description: "Imports a package from node_modules.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: value }] }; },
});
`;

/** Installs `fixture-pkg` in `dir`'s `node_modules`: an ES module package whose `value` is "from a package". */
export async function writeFixturePackage(dir: string): Promise<void> {
  const folder = join(dir, "node_modules/fixture-pkg");
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, "package.json"),
    JSON.stringify({ name: "fixture-pkg", type: "module", exports: "./index.js" }),
  );
  await writeFile(join(folder, "index.js"), 'export const value = "from a package";\n');
}
