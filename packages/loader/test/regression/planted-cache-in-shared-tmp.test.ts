import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";

// Bug: with no <cwd>/node_modules the default compile cache was <tmpdir>/tooldock-cache.
// Another user could create that folder first (mode 0777) and plant an index entry and a
// bundle; the next `tooldock call` or `validate` ran the planted bundle as its own user.
// Now the default is per user ($XDG_CACHE_HOME/tooldock, mode 0700), and a cache folder that
// is not private is not read at all: one W_CACHE_UNSAFE warning, and the load goes on.

const TOOL_SOURCE = `import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "honest_tool",
  label: "Honest",
  description: "The tool the user wrote.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "honest" }] };
  },
});
`;

let base: string;
let project: string;
let marker: string;
const savedEnv = { ...process.env };

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-planted-")));
  project = join(base, "project");
  mkdirSync(project);
  writeFileSync(join(project, "honest.ts"), TOOL_SOURCE);
  marker = join(base, "planted-code-ran");
});

afterEach(() => {
  // Restored in place: the worker's later test files keep Node's own `process.env` object.
  for (const name of ["TMPDIR", "XDG_CACHE_HOME", "TOOLDOCK_CACHE_DIR"]) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  rmSync(base, { recursive: true, force: true });
});

/**
 * What the attacker does: a cache whose index proves the tool's bundle current (the attacker
 * knows the source, so they can compute it; here a real compile provides it) and whose bundle
 * is their own code. Everything in it is writable by everyone, as a planted folder is.
 */
async function plantCache(planted: string): Promise<void> {
  const genuine = join(base, "genuine-cache");
  const result = await loadCustomTools({ paths: ["honest.ts"], cwd: project, cacheDir: genuine });
  expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["honest_tool"]);
  // On Node 22.15+ a cold load returns before its pack is written (file by file, packs after).
  expect(await result.cached).toEqual([]);
  cpSync(genuine, planted, { recursive: true });
  const [index] = readdirSync(join(planted, "index"));
  const { members } = JSON.parse(readFileSync(join(planted, "index", index as string), "utf8")) as {
    members: Array<{ pack: string }>;
  };
  // The pack the index names, and the script a warm load runs in its place, are the attacker's.
  const ran = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "planted code ran");`;
  const pack = join(planted, "bundles", `pack-${members[0]?.pack}`);
  expect(existsSync(`${pack}.mjs`)).toBe(true);
  writeFileSync(
    `${pack}.mjs`,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "planted code ran");\nexport default () => [];\n`,
  );
  if (existsSync(`${pack}.script`)) writeFileSync(`${pack}.script`, ran);
  shareEverything(planted);
}

function shareEverything(folder: string): void {
  chmodSync(folder, 0o777);
  for (const name of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, name.name);
    if (name.isDirectory()) shareEverything(path);
    else chmodSync(path, 0o666);
  }
}

const posix = typeof process.getuid === "function";

describe.runIf(posix)("a compile cache planted in a shared folder", () => {
  it("is never read: the planted bundle does not run, one W_CACHE_UNSAFE, the tool still loads", async () => {
    const planted = join(base, "shared-tmp", "tooldock-cache");
    mkdirSync(join(base, "shared-tmp"));
    await plantCache(planted);

    const result = await loadCustomTools({ paths: ["honest.ts"], cwd: project, cacheDir: planted });

    expect(existsSync(marker)).toBe(false);
    expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["honest_tool"]);
    const unsafe = result.diagnostics.filter((diagnostic) => diagnostic.code === "W_CACHE_UNSAFE");
    expect(unsafe).toHaveLength(1);
    expect(result.diagnostics).toHaveLength(1);
    expect(unsafe[0]).toMatchObject({ severity: "warning", path: join(project, "honest.ts") });
    expect(unsafe[0]?.message).toContain(`${planted} is writable by group or others (mode 777)`);
    expect(unsafe[0]?.hint).toContain(`rm -rf ${planted}`);
    expect(unsafe[0]?.hint).toContain("TOOLDOCK_CACHE_DIR");
  });

  it("is not the default any more: without node_modules the cache is $XDG_CACHE_HOME/tooldock, mode 0700", async () => {
    const sharedTmp = join(base, "shared-tmp");
    mkdirSync(sharedTmp);
    await plantCache(join(sharedTmp, "tooldock-cache"));
    process.env.TMPDIR = sharedTmp;
    process.env.XDG_CACHE_HOME = join(base, "xdg-cache");
    delete process.env.TOOLDOCK_CACHE_DIR;

    const result = await loadCustomTools({ paths: ["honest.ts"], cwd: project });
    expect(await result.cached).toEqual([]); // the packs of a load file by file come after it

    expect(existsSync(marker)).toBe(false);
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["honest_tool"]);
    const userCache = join(base, "xdg-cache", "tooldock");
    expect(statSync(userCache).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(userCache, "bundles")).length).toBeGreaterThan(0);
  });

  // The control (mode 600, as the loader writes its packs) shows the plant reaches the import:
  // only the mode of the planted pack differs between the two.
  it.each([
    ["666", "is rebuilt: the planted code does not run", 0o666, false],
    ["600", "is imported (the control: a pack the loader could have written)", 0o600, true],
  ])(
    "a planted pack of the recorded size, mode %s, in a private folder, %s",
    async (_mode, _what, mode, runs) => {
      const cacheDir = join(base, "private-cache");
      await plantCache(cacheDir);
      // The attacker's pack has exactly the size the index records, and there is no script or
      // code cache beside it, so the load would import the pack itself: only the pack's mode
      // (writable by others) tells it is not the loader's own file.
      const [index] = readdirSync(join(cacheDir, "index"));
      const { members } = JSON.parse(readFileSync(join(cacheDir, "index", index as string), "utf8")) as {
        members: Array<{ pack: string; packBytes: number }>;
      };
      const [member] = members;
      const pack = join(cacheDir, "bundles", `pack-${member?.pack}`);
      const planted = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "planted code ran");\nexport default () => [];\n//`;
      const padding = (member?.packBytes ?? 0) - Buffer.byteLength(planted);
      expect(padding).toBeGreaterThan(0);
      writeFileSync(`${pack}.mjs`, planted + " ".repeat(padding));
      for (const name of readdirSync(join(cacheDir, "bundles")))
        if (!name.endsWith(".mjs")) rmSync(join(cacheDir, "bundles", name));
      // The user made the folders private again (chmod 700), but the planted files stayed.
      for (const folder of [cacheDir, ...readdirSync(cacheDir).map((name) => join(cacheDir, name))])
        chmodSync(folder, 0o700);
      chmodSync(`${pack}.mjs`, mode);

      // The victim is a fresh process: nothing of the genuine compile is in its memory.
      const victim = spawnSync(process.execPath, ["--input-type=module", "-e", VICTIM, project, cacheDir], {
        encoding: "utf8",
      });
      expect(existsSync(marker)).toBe(runs);
      if (runs) return;
      expect(victim.stderr).toBe("");
      const result = JSON.parse(victim.stdout) as { tools: string[]; diagnostics: unknown[] };
      expect(result.diagnostics).toEqual([]);
      expect(result.tools).toEqual(["honest_tool"]);
    },
  );
});

/** Loads `honest.ts` with the built loader: `node -e VICTIM <project> <cacheDir>`. */
const VICTIM = `
const [project, cacheDir] = process.argv.slice(1);
const { loadCustomTools } = await import(${JSON.stringify(pathToFileURL(fileURLToPath(new URL("../../dist/index.js", import.meta.url))).href)});
const result = await loadCustomTools({ paths: ["honest.ts"], cwd: project, cacheDir });
await result.cached;
process.stdout.write(JSON.stringify({ tools: result.tools.map((loaded) => loaded.tool.name), diagnostics: result.diagnostics }));
`;
