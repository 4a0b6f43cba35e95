// The release rehearsal: what a newcomer outside the repo does, with the tarballs a release
// would publish and without publishing. Packs every public package with the release:pack
// script (and runs release:check on the tarballs), installs the tarballs into a fresh project with npm (third-party packages come from
// the registry, through an npm cache inside this test's temporary folder), then runs the
// installed `tooldock`, scaffolds a tool package from the tarballs (`init --from`), installs
// and tests it, validates it, loads it from a host script, and type-checks a TypeScript
// consumer under `moduleResolution` node16 (a CommonJS file included) and bundler.
//
// The tests run concurrently: each step (pack, install, scaffold) runs once, started by the
// first test that needs it, and each test waits for the steps it builds on. release:check runs
// while npm installs the tarballs, and the TypeScript consumer and the installed CLI's checks
// while the scaffold installs and tests: the file takes its longest chain of steps, not their sum.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, type ExpectStatic, it } from "vitest";
import { testRuntime } from "../../../scripts/runtimes.mjs";
import { assertBuilt, repoRoot } from "./cli-process.js";

const PUBLIC_PACKAGES = ["ai-sdk", "ast-edit", "cli", "loader", "runtime", "sdk"];
const INSTALL_TIMEOUT_MS = 240_000;
/** A test waits for the steps before its own: packing, installing, scaffolding (each well under 240 s). */
const CHAIN_TIMEOUT_MS = 4 * INSTALL_TIMEOUT_MS;

interface Run {
  code: number | null;
  output: string;
}

let root: string;
let artifacts: string;
let consumer: string;
let scaffold: string;
let env: NodeJS.ProcessEnv;

/**
 * The environment of every command: the test run's, without the npm_* variables a package
 * manager running the suite sets (a user's shell has none), with npm's cache, logs, the
 * compile cache and the state folder inside this test's folder, so nothing is written to ~.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) && !/^npm_config_registry$/i.test(name)) continue;
    if (name === "TOOLDOCK_CACHE_DIR" || name === "TOOLDOCK_STATE_DIR") continue;
    base[name] = value;
  }
  return {
    ...base,
    npm_config_cache: join(root, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    // The cache is this run's own, filled from the registry by the first install: the second
    // (the scaffold's) need not ask the registry again whether what it fetched a minute ago
    // changed, which took it ~20 s of its ~40.
    npm_config_prefer_offline: "true",
    npm_config_loglevel: "error",
    XDG_CACHE_HOME: join(root, "xdg-cache"),
    XDG_STATE_HOME: join(root, "xdg-state"),
    NO_COLOR: "1",
    CI: "1",
  };
}

/** Runs `command` in `cwd`; resolves with the exit code and stdout and stderr interleaved. */
function sh(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Asserts a zero exit code, showing the command's output when it is not. */
function expectSuccess(expect: ExpectStatic, run: Run, what: string): void {
  expect(run.code, `${what} failed:\n${run.output}`).toBe(0);
}

/** `step` run once, by the first caller; the others wait for the same run. */
function once<T>(step: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= step();
    return running;
  };
}

/** `pnpm release:pack` into `artifacts`. */
const pack = once(() =>
  sh(process.execPath, [join(repoRoot, "scripts/release-pack.mjs"), "--out", artifacts], repoRoot),
);

/** npm installs the tarballs into `consumer`, once they are packed. */
const install = once(async (): Promise<Run> => {
  const packed = await pack();
  if (packed.code !== 0) return { code: packed.code, output: `release:pack failed:\n${packed.output}` };
  const tarballs = PUBLIC_PACKAGES.map((name) => join(artifacts, `tooldock-${name}-0.1.0.tgz`));
  // @types/node: the runtime's and the loader's types name Node's (their READMEs say so).
  return sh("npm", ["install", "--no-audit", "--no-fund", ...tarballs, "@types/node@^20.19.0"], consumer);
});

/**
 * A script in the project with better-sqlite3 13: `open` opens an SQLite journal by its path,
 * so the runtime picks the driver (better-sqlite3 on a Node without node:sqlite); `stage` and
 * `apply` run a session whose journal is a better-sqlite3 13 `Database` given as `database`,
 * staging a durable action in one process and applying it in the next. One JSON line each.
 */
const JOURNAL_SCRIPT = `import { createRequire } from "node:module";
import { Type } from "@sinclair/typebox";
import { openSqliteJournal, Session } from "@tooldock/runtime";
const [step] = process.argv.slice(2);
const print = (value) => process.stdout.write(\`\${JSON.stringify(value)}\\n\`);
if (step === "open") {
  try {
    openSqliteJournal("picked.db").close();
    print({ opened: true });
  } catch (error) {
    print({ code: error.code, message: error.message });
  }
} else {
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const journal = openSqliteJournal("given.db", { database: new Database("given.db") });
  const session = await Session.open({ sessionId: "chat", journal });
  session.register({
    name: "stage_note",
    label: "Stage note",
    description: "Stages a durable note.",
    parameters: Type.Object({}),
    actions: { note: { apply: async (payload) => ({ content: [{ type: "text", text: \`applied \${payload.by}\` }] }) } },
    async execute(_id, _params, _onUpdate, ctx) {
      ctx.pushPendingAction({ label: "Note", handler: "note", payload: { by: process.pid } });
      return { content: [{ type: "text", text: "staged" }] };
    },
  });
  if (step === "stage") {
    await session.execute({ toolCallId: "t1", name: "stage_note", params: {} });
    print({ pid: process.pid, pending: session.pending.list().map((record) => record.label) });
  } else {
    const result = await session.execute({ toolCallId: "t2", name: "resolve", params: { action: "apply", reason: "ok" } });
    const history = (await session.pending.history()).map((transition) => transition.kind);
    print({ text: result.content.map((block) => block.text).join(""), history });
  }
  await session.dispose();
  journal.close();
}
`;

/** The JSON line a run of {@link JOURNAL_SCRIPT} printed (Node's warnings may come around it). */
function printed(run: Run): Record<string, unknown> {
  const line = run.output.split("\n").find((text) => text.startsWith("{"));
  if (line === undefined) throw new Error(`no result line (exit code ${run.code}):\n${run.output}`);
  return JSON.parse(line) as Record<string, unknown>;
}

/**
 * npm installs the runtime's tarball (and the SDK's it needs) into a project that already
 * depends on better-sqlite3 13, the driver's current major (issue: npm refused it with
 * ERESOLVE while the runtime's optional peer range said `^12`). After the first install,
 * whose cache holds the runtime's dependencies. Scripts off: better-sqlite3 13 has none (its
 * addons come in its tarball), and nothing else here needs one.
 */
const besideBetterSqlite13 = once(async (): Promise<Run> => {
  await install();
  const project = join(root, "app-with-better-sqlite3-13");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    `${JSON.stringify({ name: "app", private: true, dependencies: { "better-sqlite3": "^13.0.0" } }, null, 2)}\n`,
  );
  await writeFile(join(project, "journal.mjs"), JOURNAL_SCRIPT);
  const tarballs = ["runtime", "sdk"].map((name) => join(artifacts, `tooldock-${name}-0.1.0.tgz`));
  return sh("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], project);
});

/** The installed CLI, once installed. */
async function installedBin(expect: ExpectStatic): Promise<string> {
  expectSuccess(expect, await install(), "npm install of the tarballs");
  return join(consumer, "node_modules/.bin/tooldock");
}

/** `tooldock init --from` with the installed CLI, then npm install, npm test and validate in it. */
const scaffolded = once(async () => {
  const installed = await install();
  const bin = join(consumer, "node_modules/.bin/tooldock");
  const init =
    installed.code === 0 ? await sh(bin, ["init", scaffold, "--from", artifacts], root) : installed;
  if (init.code !== 0) return { init, manifest: {}, npmInstall: init, test: init, validate: init };
  // What init wrote, before npm install reads it.
  const manifest = JSON.parse(await readFile(join(scaffold, "package.json"), "utf8"));
  const npmInstall = await sh("npm", ["install", "--no-audit", "--no-fund"], scaffold);
  if (npmInstall.code !== 0) return { init, manifest, npmInstall, test: npmInstall, validate: npmInstall };
  const test = await sh("npm", ["test"], scaffold);
  const validate = await sh("npx", ["tooldock", "validate", "--strict"], scaffold);
  return { init, manifest, npmInstall, test, validate };
});

const tsc = (project: string) =>
  sh(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", project], consumer);

beforeAll(async () => {
  assertBuilt();
  root = await mkdtemp(join(tmpdir(), "tooldock-release-rehearsal-"));
  artifacts = join(root, "artifacts");
  consumer = join(root, "consumer");
  scaffold = join(root, "word-tools");
  env = cleanEnv();
  await mkdir(consumer);
  await writeFile(
    join(consumer, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`,
  );
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.concurrent("release rehearsal: the tarballs, installed outside the repo", () => {
  it(
    "release:pack writes every public package's tarball, with workspace ranges rewritten",
    async ({ expect }) => {
      expectSuccess(expect, await pack(), "release:pack");
      const tarballs = (await readdir(artifacts)).sort();
      expect(tarballs).toEqual(PUBLIC_PACKAGES.map((name) => `tooldock-${name}-0.1.0.tgz`));
      for (const tarball of tarballs) {
        const manifest = await sh("tar", ["-xOzf", join(artifacts, tarball), "package/package.json"], root);
        expectSuccess(expect, manifest, `reading ${tarball}`);
        expect(manifest.output).not.toContain("workspace:");
        expect(manifest.output).not.toContain("@tooldock/examples");
        const files = await sh("tar", ["-tzf", join(artifacts, tarball)], root);
        expect(files.output).toContain("package/LICENSE");
        expect(files.output).toContain("package/CHANGELOG.md");
        expect(files.output).not.toContain(".tsbuildinfo");
        // Only @tooldock/ast-edit brings the native ast-grep addon (issue 15).
        if (tarball !== "tooldock-ast-edit-0.1.0.tgz") expect(manifest.output).not.toContain("@ast-grep");
        else expect(JSON.parse(manifest.output).dependencies).toHaveProperty("@ast-grep/napi");
      }
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "release:check passes: publint, Are the Types Wrong (ESM-only profile) and the source maps on every tarball",
    async ({ expect }) => {
      expectSuccess(expect, await pack(), "release:pack");
      const check = await sh(
        process.execPath,
        [join(repoRoot, "scripts/release-check.mjs"), artifacts],
        repoRoot,
      );
      expectSuccess(expect, check, "release:check");
      expect(check.output).toContain(`release:check: ${PUBLIC_PACKAGES.length} tarballs pass`);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "npm installs the tarballs into a fresh project; the installed CLI runs (--version, demo)",
    async ({ expect }) => {
      await installedBin(expect);
      const version = await sh("npx", ["tooldock", "--version"], consumer);
      expectSuccess(expect, version, "npx tooldock --version");
      expect(version.output.trim()).toBe("0.1.0");
      const scoped = await sh("npx", ["@tooldock/cli", "--version"], consumer);
      expectSuccess(expect, scoped, "npx @tooldock/cli --version");
      expect(scoped.output.trim()).toBe("0.1.0");
      // The demo's tools ship inside the CLI tarball: no @tooldock/examples is installed.
      const demo = await sh("npx", ["tooldock", "demo"], consumer);
      expectSuccess(expect, demo, "npx tooldock demo");
      expect(demo.output).toContain("✔ Demo finished.");
      expect(demo.output).toMatch(/node_modules[/\\]@tooldock[/\\]cli[/\\]dist[/\\]demo-tools/);
    },
    CHAIN_TIMEOUT_MS,
  );

  it(
    "npm-install-beside-better-sqlite3-13-conflicts: the runtime installs into a project that depends on better-sqlite3 13",
    async ({ expect }) => {
      const run = await besideBetterSqlite13();
      expectSuccess(expect, run, "npm install of the runtime beside better-sqlite3 13");
      const installed = JSON.parse(
        await readFile(
          join(root, "app-with-better-sqlite3-13/node_modules/better-sqlite3/package.json"),
          "utf8",
        ),
      );
      expect(installed.version).toMatch(/^13\./);
    },
    CHAIN_TIMEOUT_MS,
  );

  it(
    "the SQLite journal runs on that better-sqlite3 13 under Node 24: staged in one process, applied in the next",
    async ({ expect, skip }) => {
      expectSuccess(
        expect,
        await besideBetterSqlite13(),
        "npm install of the runtime beside better-sqlite3 13",
      );
      const node24 = await testRuntime("node@24", skip);
      const project = join(root, "app-with-better-sqlite3-13");
      const stage = await sh(node24, ["journal.mjs", "stage"], project);
      expectSuccess(expect, stage, "staging with better-sqlite3 13");
      const staged = printed(stage);
      expect(staged.pending).toEqual(["Note"]);
      const apply = await sh(node24, ["journal.mjs", "apply"], project);
      expectSuccess(expect, apply, "applying with better-sqlite3 13");
      expect(printed(apply)).toEqual({ text: `applied ${staged.pid}`, history: ["staged", "applied"] });
    },
    CHAIN_TIMEOUT_MS,
  );

  it.skipIf(Number(process.versions.node.split(".")[0]) >= 22)(
    "journal-on-node-20-beside-better-sqlite3-13-segfaults: on Node 20, the journal refuses better-sqlite3 13 with E_PENDING_STORE",
    async ({ expect }) => {
      expectSuccess(
        expect,
        await besideBetterSqlite13(),
        "npm install of the runtime beside better-sqlite3 13",
      );
      const open = await sh(
        process.execPath,
        ["journal.mjs", "open"],
        join(root, "app-with-better-sqlite3-13"),
      );
      expectSuccess(expect, open, "opening the journal on Node 20");
      const refused = printed(open);
      expect(refused.code).toBe("E_PENDING_STORE");
      expect(refused.message).toMatch(/would use better-sqlite3 13\.\d+\.\d+, which needs Node >=22/);
      expect(refused.message).toContain("(npm install better-sqlite3@12), or run Node 22.13 or later");
    },
    CHAIN_TIMEOUT_MS,
  );

  it(
    "tooldock init --from scaffolds a package that installs from the tarballs, passes its tests and validate --strict",
    async ({ expect }) => {
      await installedBin(expect);
      const { init, manifest, npmInstall, test, validate } = await scaffolded();
      expectSuccess(expect, init, "tooldock init --from");
      expect(manifest.devDependencies["@tooldock/sdk"]).toBe("file:../artifacts/tooldock-sdk-0.1.0.tgz");
      expect(manifest.devDependencies["@tooldock/runtime"]).toBe(
        "file:../artifacts/tooldock-runtime-0.1.0.tgz",
      );

      expectSuccess(expect, npmInstall, "npm install in the scaffold");
      expectSuccess(expect, test, "npm test in the scaffold");
      expect(test.output).toMatch(/4 passed/);

      expectSuccess(expect, validate, "tooldock validate --strict in the scaffold");
      expect(validate.output).toContain("✔ 1 module, 1 tool, 0 errors, 0 warnings");
    },
    CHAIN_TIMEOUT_MS,
  );

  it(
    "a host script imports the installed loader and runtime, loads the scaffold and calls its tool",
    async ({ expect }) => {
      await installedBin(expect);
      expectSuccess(expect, (await scaffolded()).npmInstall, "npm install in the scaffold");
      await writeFile(
        join(consumer, "host.mjs"),
        [
          'import { loadCustomTools, ToolHost } from "@tooldock/loader";',
          'import { Session } from "@tooldock/runtime";',
          "const [paths] = process.argv.slice(2);",
          "const host = new ToolHost({ cwd: process.cwd() });",
          "const session = new Session({ cwd: process.cwd() });",
          "const { tools, diagnostics } = await loadCustomTools({ paths: [paths], host, session });",
          "await session.start();",
          'const result = await session.execute({ toolCallId: "t1", name: "word_tools", params: { text: "one two three" } });',
          "await session.dispose();",
          "process.stdout.write(JSON.stringify({ tools: tools.map((loaded) => loaded.tool.name), diagnostics, result }));",
        ].join("\n"),
      );
      const host = await sh(process.execPath, ["host.mjs", scaffold], consumer);
      expectSuccess(expect, host, "the host script");
      expect(JSON.parse(host.output)).toEqual({
        tools: ["word_tools"],
        diagnostics: [],
        result: { content: [{ type: "text", text: "3 words" }], details: { words: 3 } },
      });
    },
    CHAIN_TIMEOUT_MS,
  );

  it(
    "a TypeScript consumer type-checks under moduleResolution node16 (a CommonJS file too) and bundler",
    async ({ expect }) => {
      await installedBin(expect);
      const source = [
        'import type { AgentToolResult } from "@tooldock/sdk";',
        'import { textResult } from "@tooldock/sdk";',
        'import { Session } from "@tooldock/runtime";',
        'import { createAstEditTool } from "@tooldock/ast-edit";',
        'import { loadCustomTools, ToolHost } from "@tooldock/loader";',
        'import { createToolHarness } from "@tooldock/loader/testing";',
        'import { run } from "@tooldock/cli";',
        "",
        'export const session: Session = new Session({ cwd: "." });',
        'session.register(createAstEditTool({ cwd: "." }), "built-in");',
        'export const host: ToolHost = new ToolHost({ cwd: "." });',
        "export const api = { loadCustomTools, createToolHarness, run };",
        'export const result: AgentToolResult = textResult("ok");',
        "// The types are real, not `any`: a wrong use is an error.",
        "// @ts-expect-error Session is not a number",
        'export const wrong: number = new Session({ cwd: "." });',
        "",
      ].join("\n");
      const commonJs = [
        "// A CommonJS file under node16: the ESM-only packages load through import(), as the READMEs say.",
        "export async function sessionFromCommonJs(): Promise<object> {",
        '  const { Session } = await import("@tooldock/runtime");',
        '  return new Session({ cwd: "." });',
        "}",
        "",
      ].join("\n");
      const options = { target: "ES2022", strict: true, noEmit: true, types: ["node"] };
      const projects = {
        "ts-node16": {
          compilerOptions: { ...options, module: "node16", moduleResolution: "node16", skipLibCheck: false },
          files: ["index.ts", "common.cts"],
        },
        "ts-bundler": {
          compilerOptions: { ...options, module: "esnext", moduleResolution: "bundler", skipLibCheck: true },
          files: ["index.ts"],
        },
      };
      // The AI SDK adapter only under bundler with skipLibCheck: `ai`'s own declarations need
      // @types/json-schema, which it does not install (a library check would report that).
      const aiSdk =
        'import { createAISDKTools } from "@tooldock/ai-sdk";\nexport const adapter = createAISDKTools;\n';
      for (const [folder, tsconfig] of Object.entries(projects)) {
        await mkdir(join(consumer, folder));
        await writeFile(
          join(consumer, folder, "index.ts"),
          folder === "ts-bundler" ? source + aiSdk : source,
        );
        await writeFile(join(consumer, folder, "common.cts"), commonJs);
        await writeFile(join(consumer, folder, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
      }
      const [node16, bundler] = await Promise.all([tsc("ts-node16"), tsc("ts-bundler")]);
      expectSuccess(expect, node16, "tsc under moduleResolution node16");
      expectSuccess(expect, bundler, "tsc under moduleResolution bundler");
    },
    CHAIN_TIMEOUT_MS,
  );
});
