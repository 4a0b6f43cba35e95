import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, brokenDir, EXAMPLE_TOOL_NAMES, examplesDir, runCli, tempDir } from "./cli-process.js";
import { TOOL_ENTRY_KEYS } from "./tool-entry.js";

// Every load fault the fixture folder holds, by module file; plus two paths given directly.
const EXPECTED_ERRORS: Array<[string, string]> = [
  ["bad-name.ts", "E_NAME_INVALID"],
  ["bad-schema.ts", "E_INVALID_SCHEMA"],
  ["exits.ts", "E_PROCESS_EXIT"],
  ["factory-throws.ts", "E_FACTORY_THROW"],
  ["invalid-tool.ts", "E_INVALID_TOOL"],
  ["name-conflict.ts", "E_NAME_CONFLICT"],
  ["never-settles.ts", "E_FACTORY_TIMEOUT"],
  ["no-factory.ts", "E_NO_FACTORY"],
  ["syntax-error.ts", "E_COMPILE"],
  ["throws-on-import.ts", "E_IMPORT"],
  ["README.md", "E_NOT_EXECUTABLE"],
  ["does-not-exist", "E_DISCOVERY"],
];
const brokenArgs = [brokenDir, join(brokenDir, "README.md"), join(brokenDir, "does-not-exist")];
const brokenEnv = { TOOLDOCK_FACTORY_TIMEOUT_MS: "500" };
const fileOf = (diagnostic: Diagnostic) => diagnostic.path.split(/[\\/]/).at(-1) ?? "";

beforeAll(assertBuilt);

describe("tooldock list / validate on the examples", () => {
  it("lists every example tool and exits 0", async () => {
    const run = await runCli(["list", examplesDir]);
    expect(run.code).toBe(0);
    for (const name of EXAMPLE_TOOL_NAMES) expect(run.stdout).toContain(name);
    expect(run.stdout).toContain("✔ 5 modules, 7 tools, 0 errors, 0 warnings");
    expect(run.stdout).not.toContain("\u001b[");
  });

  it("prints exactly the JSON document of docs/contract.md §6", async () => {
    const run = await runCli(["list", examplesDir, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual(["ok", "summary", "tools", "diagnostics"]);
    expect(report).toMatchObject({
      ok: true,
      summary: { modules: 5, tools: 7, errors: 0, warnings: 0 },
      diagnostics: [],
    });
    expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(EXAMPLE_TOOL_NAMES);
    const rename = report.tools[0];
    expect(Object.keys(rename)).toEqual(TOOL_ENTRY_KEYS);
    expect(rename).toMatchObject({
      deferrable: true,
      hidden: false,
      annotations: { title: rename.label, readOnlyHint: true },
      parameters: { type: "object" },
    });
    expect(rename.path).toBe(join(examplesDir, "tools/batch-rename-preview.ts"));
  });

  it("passes validate --strict (the examples are written for OpenAI strict mode)", async () => {
    const run = await runCli(["validate", examplesDir, "--strict", "--format", "json"]);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, summary: { errors: 0, warnings: 0 } });
    expect(run.code).toBe(0);
  });

  it("takes modules from positional paths and repeated --tools alike", async () => {
    const tools = join(examplesDir, "tools");
    const run = await runCli([
      "list",
      join(tools, "notes.ts"),
      "--tools",
      join(tools, "text-stats.ts"),
      "--tools",
      join(tools, "project-info.ts"),
      "--json",
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary).toEqual({ modules: 3, tools: 5, errors: 0, warnings: 0 });
  });

  it("uses the package's own manifest when run inside it with no path", async () => {
    const run = await runCli(["list", "--json"], { cwd: examplesDir });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary.tools).toBe(7);
  });
});

describe("tooldock list / validate on broken modules", () => {
  it("exits 1 and reports every diagnostic in the JSON, with file, code, message and hint", async () => {
    const run = await runCli(["validate", ...brokenArgs, "--format", "json"], { env: brokenEnv });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    const found = (report.diagnostics as Diagnostic[]).map((diagnostic) => [
      fileOf(diagnostic),
      diagnostic.code,
    ]);
    expect(found.sort()).toEqual([...EXPECTED_ERRORS].sort());
    expect(report.summary).toEqual({ modules: 11, tools: 1, errors: EXPECTED_ERRORS.length, warnings: 0 });
    expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(["good_tool"]);
  });

  it("prints every diagnostic with its file, code, message and hint in list's table view", async () => {
    const run = await runCli(["list", ...brokenArgs], { env: brokenEnv });
    expect(run.code).toBe(1);
    for (const [file, code] of EXPECTED_ERRORS)
      expect(run.stdout).toMatch(new RegExp(`error ${code} \\S*${file.replace(".", "\\.")}`));
    expect(run.stdout.match(/^ {2}hint: /gm)).toHaveLength(EXPECTED_ERRORS.length);
    expect(run.stdout).toContain("2 |   const broken = ;");
  });

  it("prints well-formed JUnit with one failing case per error", async () => {
    const run = await runCli(["validate", ...brokenArgs, "--format", "junit"], { env: brokenEnv });
    expect(run.code).toBe(1);
    expect(XMLValidator.validate(run.stdout)).toBe(true);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (name) => name === "testsuite" || name === "testcase",
    });
    const suites = parser.parse(run.stdout).testsuites.testsuite as Array<{
      testcase: Array<Record<string, unknown>>;
    }>;
    const cases = suites.flatMap((suite) => suite.testcase);
    const failures = cases.filter((testcase) => "failure" in testcase);
    expect(failures.map((testcase) => (testcase.failure as { type: string }).type).sort()).toEqual(
      EXPECTED_ERRORS.map(([, code]) => code).sort(),
    );
    expect(cases.filter((testcase) => !("failure" in testcase)).map((testcase) => testcase.name)).toEqual([
      "good_tool",
    ]);
  });

  it("writes the report to --output (creating its folder) and the pretty report to stdout", async () => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, "reports/tooldock.xml");
      const run = await runCli(["validate", ...brokenArgs, "--format", "junit", "--output", file], {
        env: brokenEnv,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`junit report written to ${file}`);
      expect(run.stdout).toContain("error E_COMPILE");
      const xml = await readFile(file, "utf8");
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(xml).toContain('<testsuites name="tooldock validate"');
    } finally {
      await dir.remove();
    }
  });
});

describe("tooldock validate with a module that leaves work running", () => {
  it("exits once the report is out, even though an interval would keep the process alive", async () => {
    const dir = await tempDir({
      "leaky.ts": [
        'import type { CustomToolAPI } from "@tooldock/sdk";',
        "setInterval(() => {}, 1000);",
        "export default (pi: CustomToolAPI) => ({",
        '  name: "leaky_tool",',
        '  label: "Leaky tool",',
        '  description: "Leaves an interval running.",',
        "  parameters: pi.typebox.Type.Object({}),",
        "  async execute() {",
        "    return { content: [] };",
        "  },",
        "});",
      ].join("\n"),
    });
    try {
      const run = await runCli(["validate", dir.path, "--format", "json"]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(["leaky_tool"]);
    } finally {
      await dir.remove();
    }
  });
});
