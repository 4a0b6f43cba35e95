import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../scripts/runtimes.mjs";
import { assertBuilt, tempDir } from "./cli-process.js";
import { startMcpHttpChild } from "./mcp-http-child.js";

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in the root
 * package.json) against the built CLI's `mcp --http`, serving `fixtures/conformance-tools`:
 * the tools its scenarios call, answering as each scenario's description asks. Every scenario
 * of the tool surface and of the HTTP transport must pass; the others are listed, each with
 * its reason, in `fixtures/conformance-tools/expected-failures.yml`, which the suite reads:
 * it fails the run on an unlisted failure and on a listed scenario that passes, so the list
 * cannot go stale. The suite needs Node 22 or later (it imports `globSync` from `fs`): under an
 * older Node it runs on the Node 24 of the runtime cache (`scripts/runtimes.mjs`), installed
 * once as the runtime matrix does.
 */
const TIMEOUT = 120_000;
const INSTALL_TIMEOUT = 600_000;
const fixturesDir = fileURLToPath(new URL("./fixtures/conformance-tools", import.meta.url));
const expectedFailuresFile = join(fixturesDir, "expected-failures.yml");

/**
 * What Tooldock serves, so what must pass: the session (initialize, ping, log levels), the
 * tools, and the HTTP transport (concurrent POST streams; the Host and Origin checks of
 * `mcp --http` against DNS rebinding).
 */
const MUST_PASS = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "json-schema-2020-12",
  "tools-call-elicitation",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/** The conformance CLI (its package's `bin`), resolved as the root package.json installs it. */
function conformanceBin(): string {
  const manifest = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: { conformance: string } };
  return join(dirname(manifest), bin.conformance);
}

interface Run {
  code: number | null;
  stdout: string;
}

/**
 * Runs the conformance CLI on `node` in `cwd` to its exit; `timeout` kills a suite that hangs,
 * so it cannot outlive the test.
 */
function runConformance(node: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [conformanceBin(), ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: TIMEOUT,
    });
    let stdout = "";
    const collect = (chunk: string) => {
      stdout += chunk;
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: stripVTControlCharacters(stdout) }));
  });
}

/** One check of a scenario, as the suite writes it to `checks.json`. */
interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO";
  errorMessage?: string;
}

/**
 * Each scenario's outcome from the suite's `--output-dir` (a folder per scenario,
 * `server-<scenario>-<timestamp>/checks.json`): `"pass"`, or the checks that failed or warned
 * (the suite counts a warning against its baseline as a failure).
 */
async function outcomes(resultsDir: string): Promise<Record<string, "pass" | string[]>> {
  const found: Record<string, "pass" | string[]> = {};
  for (const folder of await readdir(resultsDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(folder)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(await readFile(join(resultsDir, folder, "checks.json"), "utf8")) as Check[];
    const problems = checks
      .filter((check) => check.status === "FAILURE" || check.status === "WARNING")
      .map((check) => `${check.id}: ${check.errorMessage ?? check.status}`);
    found[scenario] = problems.length === 0 ? "pass" : problems;
  }
  return found;
}

/** The entries of the expected-failures file (`server:` then one `  - name` a line). */
async function expectedFailures(): Promise<string[]> {
  const text = await readFile(expectedFailuresFile, "utf8");
  return [...text.matchAll(/^ {2}- ([\w-]+)\s*$/gm)].map((match) => match[1] as string);
}

let server: Awaited<ReturnType<typeof startMcpHttpChild>> | undefined;
let folder: Awaited<ReturnType<typeof tempDir>> | undefined;
let listed: string[] = [];
let run: Run;
let results: Record<string, "pass" | string[]> = {};
/** The Node the suite runs on. */
let node = process.execPath;

beforeAll(async () => {
  assertBuilt();
  if (Number(process.versions.node.split(".")[0]) < 22) {
    node = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
  }
}, INSTALL_TIMEOUT);

beforeAll(async () => {
  folder = await tempDir();
  // The suite's client sends no token, so the server runs without one (it listens on loopback).
  server = await startMcpHttpChild(["--no-token", fixturesDir], folder.path, { TOOLDOCK_MCP_TOKEN: "" });
  const list = await runConformance(node, ["list", "--server"], folder.path);
  listed = [...list.stdout.matchAll(/^ {2}- ([\w-]+)/gm)].map((match) => match[1] as string);
  run = await runConformance(
    node,
    [
      "server",
      "--url",
      server.url,
      "--suite",
      "all",
      "--expected-failures",
      expectedFailuresFile,
      "--output-dir",
      "results",
    ],
    folder.path,
  );
  results = await outcomes(join(folder.path, "results"));
}, TIMEOUT);

afterAll(async () => {
  server?.kill();
  await server?.exited;
  await folder?.remove();
});

describe("the MCP conformance suite against tooldock mcp --http", () => {
  it("runs every server scenario the suite lists", () => {
    expect(listed.length, "conformance list --server named no scenario").toBeGreaterThan(0);
    expect(Object.keys(results).sort()).toEqual([...listed].sort());
  });

  it("passes every scenario of the tools, the session and the HTTP transport", () => {
    const mustPass = Object.fromEntries(MUST_PASS.map((scenario) => [scenario, results[scenario]]));
    expect(mustPass).toEqual(Object.fromEntries(MUST_PASS.map((scenario) => [scenario, "pass"])));
  });

  it("lists every other scenario as an expected failure, and nothing that passes", async () => {
    const expected = await expectedFailures();
    expect([...expected, ...MUST_PASS].sort()).toEqual([...listed].sort());
    // The suite's own verdict on the baseline: exit 1 on an unlisted failure or a stale entry.
    expect(run.code, run.stdout).toBe(0);
  });
});
