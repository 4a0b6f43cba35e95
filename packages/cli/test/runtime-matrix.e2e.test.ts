import { chmod, mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../scripts/runtimes.mjs";
import {
  assertBuilt,
  brokenDir,
  type CliRun,
  cliBin,
  examplesDir,
  repoRoot,
  runProcess,
  tempDir,
} from "./cli-process.js";

/**
 * The end-to-end subset on the runtimes hosts run (issue 27, item 5): Node 22, 24 and 26 and
 * Bun 1.4, each installed once from its registry package into the user's runtime cache. Each
 * step runs the built CLI (or the example host) under that runtime and compares what a user
 * sees with the same step under the Node that runs the suite: the demo, `validate` of the
 * examples and of the broken-module corpora (in process and in a tool host), `call` with an
 * applied pending action (in process and in a tool host), MCP over stdio with the official
 * client, and the README's host example.
 */
const RUNTIMES = ["node@22", "node@24", "node@26", "bun@1.4"] as const;
const INSTALL_TIMEOUT = 600_000;
const STEP_TIMEOUT = 120_000;

/** The demo's steps and outcomes: its headings, the model's calls and each result's mark, ids masked. */
const demoSteps = (output: string) =>
  output
    .split("\n")
    .filter((line) => /^\s*(▶|✔|✘|model →)/.test(line))
    .map((line) => line.replace(/[0-9a-f]{8}-[0-9a-f]{2}…/g, "<id>").trimEnd());

/** What `validate --format json` found: each module's file name with its codes, and the tools. */
function findings(run: CliRun) {
  const report = JSON.parse(run.stdout) as {
    ok: boolean;
    summary: unknown;
    tools: Array<{ name: string }>;
    diagnostics: Array<{ code: string; path?: string }>;
  };
  return {
    exit: run.code,
    ok: report.ok,
    summary: report.summary,
    tools: report.tools.map((tool) => tool.name).sort(),
    codes: report.diagnostics.map((entry) => `${entry.path?.split("/").at(-1)}: ${entry.code}`).sort(),
  };
}

/**
 * What `validate` reads, in one run each: in process, the examples and both broken-module
 * corpora (the CLI's and the loader's); in a tool host (one per module), the examples and the
 * CLI's corpus. The modules that never settle are left out: they only wait for the deadline,
 * which the suite's own corpus tests cover.
 */
async function validatePaths() {
  const loaderFixtures = join(repoRoot, "packages/loader/test/fixtures");
  const loaderCorpus = (await readdir(loaderFixtures))
    .filter((name) => name.startsWith("error-") && name !== "error-factory-timeout")
    .map((name) => join(loaderFixtures, name));
  const cliCorpus = (await readdir(brokenDir))
    .filter((name) => name.endsWith(".ts") && name !== "never-settles.ts")
    .map((name) => join(brokenDir, name));
  const examples = join(examplesDir, "tools");
  return {
    "--no-isolate": [examples, ...cliCorpus, ...loaderCorpus],
    "--isolate": [examples, ...cliCorpus],
  };
}

/** A module that prints with console.log at import and in execute, and with console.info in its factory. */
const NOISY_MODULE = `console.log("noise at import");
export default (pi) => {
  console.info("noise in the factory");
  return {
    name: "noisy",
    label: "Noisy",
    description: "Prints while it loads and runs",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => {
      console.log("noise in execute");
      return { content: [{ type: "text", text: "result text" }] };
    },
  };
};
`;

/**
 * A TypeScript module (an interface, a typed local: compiled, not stripped) whose tool throws on
 * line 10, after giving a plain object a stack (which Bun's own formatter refuses: the loader's
 * must not hand it over).
 */
const THROWING_MODULE = `interface Odd {
  n: number;
}
export default (pi) => ({
  name: "throws",
  label: "Throws",
  description: "Throws a RangeError",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    const odd: Odd = { n: 1 }; Error.captureStackTrace(odd); throw new RangeError("boom " + odd.n);
  },
});
`;

const BATCH_ARGS = JSON.stringify({ files: ["draft-a.md"], find: "draft-", replace: "", regex: false });

/** `call batch_rename_preview … --apply --json` in a fresh folder: the result and what is left there. */
async function callAndApply(binary: string, isolation: "--isolate" | "--no-isolate") {
  const folder = await tempDir({ "draft-a.md": "a\n" });
  try {
    const run = await runProcess(
      binary,
      [
        cliBin,
        "call",
        "batch_rename_preview",
        join(examplesDir, "tools"),
        "--args",
        BATCH_ARGS,
        "--apply",
        "--json",
        isolation,
      ],
      { cwd: folder.path },
    );
    const report = JSON.parse(run.stdout) as {
      result: { isError?: boolean };
      resolved: Array<{ isError?: boolean }>;
    };
    return {
      exit: run.code,
      resultIsError: report.result.isError === true,
      resolved: report.resolved.map((entry) => entry.isError === true),
      files: (await readdir(folder.path)).sort(),
    };
  } finally {
    await folder.remove();
  }
}

/** MCP over stdio with the official client: the tool list, a call, and `resolve` applying it. */
async function mcpSession(binary: string) {
  const folder = await tempDir({ "draft-a.md": "a\n" });
  const client = new Client({ name: "runtime-matrix", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: binary,
    args: [cliBin, "mcp", join(examplesDir, "tools")],
    cwd: folder.path,
    env: { ...(process.env as Record<string, string>), NO_COLOR: "1" },
    stderr: "pipe",
  });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const preview = await client.callTool({
      name: "batch_rename_preview",
      arguments: JSON.parse(BATCH_ARGS),
    });
    const applied = await client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "matrix" },
    });
    return {
      tools: tools.map((tool) => tool.name).sort(),
      previewIsError: preview.isError === true,
      appliedIsError: applied.isError === true,
      files: (await readdir(folder.path)).sort(),
    };
  } finally {
    await client.close();
    await folder.remove();
  }
}

/** The README's host example (`packages/examples/dist/host.js`): its last lines say what it did. */
const hostExample = async (binary: string) => {
  const run = await runProcess(binary, [join(examplesDir, "dist/host.js")], { cwd: examplesDir });
  return { exit: run.code, summary: run.stdout.trim().split("\n").slice(-2) };
};

const runtimesCache = process.env.TOOLDOCK_TEST_RUNTIMES_CACHE;
const machine = process.execPath;
const validations = ["--no-isolate", "--isolate"] as const;
/** What the suite's own Node sees, once for every runtime. */
const baseline = {
  demo: [] as string[],
  validate: {} as Record<string, ReturnType<typeof findings>>,
  host: undefined as Awaited<ReturnType<typeof hostExample>> | undefined,
};
let paths: Awaited<ReturnType<typeof validatePaths>>;
const validateArgs = (isolation: (typeof validations)[number]) => [
  cliBin,
  "validate",
  ...paths[isolation],
  "--format",
  "json",
  isolation,
];

beforeAll(async () => {
  assertBuilt();
  paths = await validatePaths();
  const [demo, host, ...validated] = await Promise.all([
    runProcess(machine, ["scripts/run-cli.mjs", "demo"]),
    hostExample(machine),
    ...validations.map((isolation) => runProcess(machine, validateArgs(isolation))),
  ]);
  baseline.demo = demoSteps(demo.stdout);
  baseline.host = host;
  for (const [index, isolation] of validations.entries()) {
    baseline.validate[isolation] = findings(validated[index] as CliRun);
  }
}, STEP_TIMEOUT);

describe.each(RUNTIMES)("the end-to-end subset on %s", (spec) => {
  let binary = "";
  beforeAll(async () => {
    binary = await ensureRuntime(spec, { cacheDir: runtimesCache });
  }, INSTALL_TIMEOUT);

  it("runs the demo, every step as on the suite's Node", { timeout: STEP_TIMEOUT }, async () => {
    const there = await runProcess(binary, ["scripts/run-cli.mjs", "demo"]);
    expect(there.code, there.stderr).toBe(0);
    expect(demoSteps(there.stdout)).toEqual(baseline.demo);
    expect(baseline.demo.length).toBeGreaterThan(10);
  });

  it.each(validations)(
    "validates the examples and the broken-module corpora (%s) as on the suite's Node",
    { timeout: STEP_TIMEOUT },
    async (isolation) => {
      const there = findings(await runProcess(binary, validateArgs(isolation)));
      expect(there).toEqual(baseline.validate[isolation]);
      expect(there.codes.length).toBeGreaterThan(5);
    },
  );

  it("calls a tool and applies its pending action, in process and isolated", {
    timeout: STEP_TIMEOUT,
  }, async () => {
    for (const isolation of ["--no-isolate", "--isolate"] as const) {
      expect(await callAndApply(binary, isolation)).toEqual({
        exit: 0,
        resultIsError: false,
        resolved: [false],
        files: ["a.md"],
      });
    }
  });

  it("serves MCP over stdio to the official client", { timeout: STEP_TIMEOUT }, async () => {
    const session = await mcpSession(binary);
    expect(session).toMatchObject({ previewIsError: false, appliedIsError: false, files: ["a.md"] });
    expect(session.tools).toEqual(expect.arrayContaining(["batch_rename_preview", "resolve", "text_stats"]));
  });

  // Found by a bug hunt: on Bun, console.log writes to file descriptor 1 itself, past the
  // CLI's hold on process.stdout.write, so a module's console.log corrupted the JSON documents
  // (bun-module-stdout-leaks-into-cli-stdout).
  it("keeps stdout for the CLI's document when a module prints", { timeout: STEP_TIMEOUT }, async () => {
    const folder = await tempDir({ "tools/noisy.mjs": NOISY_MODULE });
    try {
      for (const args of [
        ["list", "tools", "--json"],
        ["schema", "tools"],
        ["call", "noisy", "tools", "--json"],
      ]) {
        const run = await runProcess(binary, [cliBin, ...args], { cwd: folder.path });
        expect({ args, code: run.code }).toEqual({ args, code: 0 });
        expect(() => JSON.parse(run.stdout)).not.toThrow();
        expect(run.stdout).not.toContain("noise");
        expect(run.stderr).toContain("noise at import");
      }
    } finally {
      await folder.remove();
    }
  });

  // Found by a bug hunt: Bun reads no source map of the JavaScript it imports, so a tool's
  // error named a line of its compiled pack, and `error.location` was missing
  // (bun-tool-error-names-the-pack).
  it("names the tool's own line when it throws", { timeout: STEP_TIMEOUT }, async () => {
    const folder = await tempDir({ "tools/throws.ts": THROWING_MODULE });
    try {
      const pretty = await runProcess(binary, [cliBin, "call", "throws", "tools"], { cwd: folder.path });
      expect(pretty.stderr).toContain('tooldock call: "throws" threw at tools/throws.ts:10:');
      const json = await runProcess(binary, [cliBin, "call", "throws", "tools", "--json"], {
        cwd: folder.path,
      });
      const { error } = JSON.parse(json.stdout) as {
        error: { message: string; location?: { file: string; line: number } };
      };
      expect(error.message).toBe("boom 1");
      expect(error.location).toMatchObject({ file: join(folder.path, "tools/throws.ts"), line: 10 });
    } finally {
      await folder.remove();
    }
  });

  it.skipIf(spec.startsWith("bun"))(
    "keeps Node's compile cache of the CLI in the private per-user folder, never in one others can write",
    { timeout: STEP_TIMEOUT },
    async () => {
      const home = await tempDir();
      try {
        const env = { XDG_CACHE_HOME: join(home.path, "cache"), NODE_COMPILE_CACHE: undefined };
        const cache = join(home.path, "cache", "tooldock", "node-compile-cache");
        expect((await runProcess(binary, [cliBin, "list", join(examplesDir, "tools")], { env })).code).toBe(
          0,
        );
        expect((await stat(cache)).mode & 0o777).toBe(0o700);
        expect((await readdir(cache)).length).toBeGreaterThan(0);
        // Attack: another user made the folder first, writable by all, to plant cache entries.
        await rm(cache, { recursive: true });
        await mkdir(cache);
        await chmod(cache, 0o777);
        expect((await runProcess(binary, [cliBin, "list", join(examplesDir, "tools")], { env })).code).toBe(
          0,
        );
        expect(await readdir(cache)).toEqual([]);
      } finally {
        await home.remove();
      }
    },
  );

  it("runs the README's host example as on the suite's Node", { timeout: STEP_TIMEOUT }, async () => {
    const there = await hostExample(binary);
    expect(there).toEqual(baseline.host);
    expect(there.exit).toBe(0);
  });
});
