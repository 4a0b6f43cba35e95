// End to end: `--opencode` on the BUILT CLI (build first: pnpm build). A project root holding
// `.opencode/tool/*.ts` (opencode custom tools: `tool({ description, args, execute })` from
// `@opencode-ai/plugin`, not installed: the loader serves it) and a top-level `vite.config.ts`
// that throws when imported. With the flag, every command that loads modules loads the
// `.opencode` tools and nothing else of the root; without it, such a module is E_NO_FACTORY.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Diagnostic } from "@tooldock/sdk";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, cliBin, runCli, tempDir } from "./cli-process.js";
import { startMcpChild } from "./mcp-child.js";
import { connectHttpClient, startMcpHttpChild } from "./mcp-http-child.js";
import { textOf } from "./mcp-in-memory.js";

/** Two named exports: tools `math_add` and `math_mul` (opencode names them `<file>_<export>`). */
const MATH = (extra = "") => `import { tool } from "@opencode-ai/plugin";

export const add = tool({
  description: "Adds two numbers",
  args: { a: tool.schema.number().describe("The first"), b: tool.schema.number().describe("The second") },
  async execute({ a, b }) {
    return a + b;
  },
});

export const mul = tool({
  description: "Multiplies two numbers",
  args: { a: tool.schema.number(), b: tool.schema.number() },
  async execute({ a, b }) {
    return \`\${a} x \${b} = \${a * b}\`;
  },
});
${extra}`;

/** A third export, added while a server watches: tool `math_sub`. */
const SUB = `
export const sub = tool({
  description: "Subtracts b from a",
  args: { a: tool.schema.number(), b: tool.schema.number() },
  async execute({ a, b }) {
    return a - b;
  },
});
`;

/** A default export (tool `guarded`) that asks for a permission before it answers. */
const GUARDED = `import { tool } from "@opencode-ai/plugin";

export default tool({
  description: "Asks before it answers",
  args: {},
  async execute(_args, context) {
    await context.ask({ permission: "edit", patterns: ["notes.md"] });
    return "allowed";
  },
});
`;

/** A project file beside .opencode/: importing it fails the load. */
const VITE_CONFIG = `throw new Error("vite.config.ts was imported as a tool module");\n`;

const TOOL_NAMES = ["guarded", "math_add", "math_mul"];
const LOADING_COMMANDS = ["list", "validate", "call", "schema", "mcp", "inspect"];

interface Report {
  ok: boolean;
  summary: { modules: number; tools: number; errors: number; warnings: number };
  tools: Array<{ name: string; path: string }>;
  diagnostics: Diagnostic[];
}

const namesOf = (report: Report) => report.tools.map((tool) => tool.name).sort();

beforeAll(assertBuilt);

let project: Awaited<ReturnType<typeof tempDir>>;
const stops: Array<() => void> = [];

beforeEach(async () => {
  project = await tempDir({
    ".opencode/tool/math.ts": MATH(),
    ".opencode/tool/guarded.ts": GUARDED,
    "vite.config.ts": VITE_CONFIG,
  });
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await project.remove();
});

describe("--opencode in every loading command's help", () => {
  it.each(LOADING_COMMANDS)("%s --help shows the flag in its usage line and options", async (command) => {
    const run = await runCli([command, "--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split("\n")[0]).toContain("[--tools PATH]… [--opencode]");
    expect(run.stdout).toMatch(/^ {6}--opencode {2,}Also load opencode custom tools: /m);
  });
});

describe("tooldock list --opencode", () => {
  it.each([[[]], [["--isolate"]]])(
    "lists the .opencode tools of a project root and imports none of its own files (%j)",
    async (extra: string[]) => {
      const run = await runCli(["list", project.path, "--opencode", "--json", ...extra]);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.ok).toBe(true);
      expect(report.diagnostics).toEqual([]);
      expect(namesOf(report)).toEqual(TOOL_NAMES);
      expect(report.summary).toEqual({ modules: 2, tools: 3, errors: 0, warnings: 0 });
      expect(report.tools.every((tool) => tool.path.includes(join(".opencode", "tool")))).toBe(true);
    },
    60_000,
  );

  it("with no path, inside an opencode project root, loads that root's .opencode tools", async () => {
    const run = await runCli(["list", "--opencode", "--json"], { cwd: project.path });
    expect(run.code, run.stderr).toBe(0);
    expect(namesOf(JSON.parse(run.stdout) as Report)).toEqual(TOOL_NAMES);
    const without = await runCli(["list", "--json"], { cwd: project.path });
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("no tool paths given");
  });

  it("without the flag, an opencode tool file is E_NO_FACTORY with a hint that names --opencode", async () => {
    const run = await runCli(["list", join(project.path, ".opencode/tool/math.ts"), "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.tools).toEqual([]);
    expect(report.diagnostics).toHaveLength(1);
    expect(report.diagnostics[0]).toMatchObject({ code: "E_NO_FACTORY", severity: "error" });
    expect(report.diagnostics[0]?.hint).toContain("--opencode");
  });

  it("without the flag, the root is an ordinary folder: its vite.config.ts is imported and fails", async () => {
    const run = await runCli(["list", project.path, "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.tools).toEqual([]);
    expect(report.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_IMPORT"]);
    expect(report.diagnostics[0]?.path).toBe(join(project.path, "vite.config.ts"));
  });
});

describe("tooldock validate --opencode", () => {
  it.each([
    ["isolated (the default)", []],
    ["--no-isolate", ["--no-isolate"]],
  ])(
    "passes %s",
    async (_mode, extra: string[]) => {
      const run = await runCli(["validate", project.path, "--opencode", "--format", "json", ...extra]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.ok).toBe(true);
      expect(report.diagnostics).toEqual([]);
      expect(namesOf(report)).toEqual(TOOL_NAMES);
    },
    60_000,
  );

  it("isolated, without the flag, fails on the root's own files", async () => {
    const run = await runCli(["validate", project.path, "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.ok).toBe(false);
    expect(report.diagnostics.some((diagnostic) => diagnostic.code === "E_IMPORT")).toBe(true);
  }, 60_000);

  it("isolated, the flag reaches each module's own load: an opencode file given alone passes", async () => {
    const run = await runCli(["validate", join(project.path, ".opencode/tool/math.ts"), "--opencode"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("✔ 1 module, 2 tools, 0 errors, 0 warnings");
  }, 60_000);
});

describe("tooldock call --opencode", () => {
  it.each([[[]], [["--isolate"]]])(
    "runs math_add and prints its result (%j)",
    async (extra: string[]) => {
      const run = await runCli([
        "call",
        "math_add",
        project.path,
        "--opencode",
        "--args",
        '{"a":1,"b":2}',
        ...extra,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.split("\n").slice(0, 2)).toEqual(["✔ math_add", "  3"]);
      const json = await runCli([
        "call",
        "math_mul",
        project.path,
        "--opencode",
        "--args",
        '{"a":6,"b":7}',
        "--json",
        ...extra,
      ]);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).result).toEqual({ content: [{ type: "text", text: "6 x 7 = 42" }] });
    },
    60_000,
  );

  it("denies context.ask: the CLI has no user interface to ask", async () => {
    const run = await runCli(["call", "guarded", project.path, "--opencode", "--json"]);
    expect(run.code).toBe(1);
    const { result } = JSON.parse(run.stdout) as { result: { isError?: boolean } };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('asked for permission "edit" for notes.md');
    expect(textOf(result)).toContain("denied");
  });
});

describe("tooldock schema --opencode", () => {
  it("prints the definitions of the opencode tools", async () => {
    const run = await runCli(["schema", project.path, "--opencode"]);
    expect(run.code, run.stderr).toBe(0);
    const definitions = JSON.parse(run.stdout) as Array<{ name: string; parameters: unknown }>;
    expect(definitions.map((definition) => definition.name).sort()).toEqual(TOOL_NAMES);
    expect(definitions.find((definition) => definition.name === "math_add")?.parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number", description: "The first" }, b: { type: "number" } },
      required: ["a", "b"],
    });
  });
});

describe("tooldock mcp --opencode", () => {
  it("serves the opencode tools over stdio and, with --watch, reloads them after an edit", async () => {
    const server = await startMcpChild(["--opencode", "--watch", project.path], project.path);
    stops.push(server.kill);
    const { client } = server;
    const waiters: Array<() => void> = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      for (const wake of waiters.splice(0)) wake();
    });
    const nextListChanged = () => new Promise<void>((resolve) => waiters.push(resolve));
    // `resolve` is listed from the start (the default, --resolve always).
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES, "resolve"]);
    expect(textOf(await client.callTool({ name: "math_add", arguments: { a: 2, b: 3 } }))).toBe("5");

    // A new export in the watched .opencode/tool folder: wait on notifications, not on time.
    await writeFile(join(project.path, ".opencode/tool/math.ts"), MATH(SUB));
    let names: string[] = [];
    while (!names.includes("math_sub")) {
      await nextListChanged();
      names = (await client.listTools()).tools.map((tool) => tool.name);
    }
    expect(names.sort()).toEqual(["guarded", "math_add", "math_mul", "math_sub", "resolve"]);
    expect(textOf(await client.callTool({ name: "math_sub", arguments: { a: 5, b: 3 } }))).toBe("2");
    server.closeStdin();
    expect(await server.exited).toBe(0);
    expect(server.stderr()).not.toContain("vite.config.ts");
  }, 60_000);

  it("serves them over --http, isolated", async () => {
    const server = await startMcpHttpChild(["--opencode", "--isolate", project.path], project.path);
    stops.push(server.kill);
    const { client } = await connectHttpClient(server.url);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      ...TOOL_NAMES,
      "resolve",
    ]);
    const called = await client.callTool({ name: "math_mul", arguments: { a: 3, b: 4 } });
    expect(textOf(called)).toBe("3 x 4 = 12");
    await client.close();
    server.closeStdin();
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe("tooldock inspect --opencode", () => {
  it("serves a page whose session holds the opencode tools", async () => {
    const child = spawn(
      process.execPath,
      [cliBin, "inspect", project.path, "--opencode", "--no-open", "--port", "0"],
      { cwd: project.path, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    stops.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const match = /^Open (http:\/\/\S+)$/m.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`inspect exited (${code}):\n${stdout}\n${stderr}`)));
    });
    expect(stdout).toContain("tooldock inspect: 4 tools from 2 modules, reloading on changes.");
    const { origin, hash } = new URL(url);
    const response = await fetch(`${origin}/api/state`, {
      headers: { authorization: `Bearer ${hash.slice("#token=".length)}` },
    });
    const state = (await response.json()) as { tools: Array<{ name: string }> };
    expect(state.tools.map((tool) => tool.name).sort()).toEqual(["ast_edit", ...TOOL_NAMES]);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 60_000);
});
