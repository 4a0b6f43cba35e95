import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PreparedCorpus, prepareCorpus } from "../../loader/test/prepare-corpus.mjs";
import { assertBuilt, runCli } from "./cli-process.js";

// The loader's corpus of broken modules (packages/loader/test/corpus/<family>-<case>/, each with
// its expected.json), validated out of process. Every case runs in a child of its own, so this
// also shows --isolate ends on every kind of fault. Isolation and in-process loading agree on
// every code of the corpus: the cases in-process cannot survive (a synchronous loop, running out
// of memory, process.exit from a timer after loading) are in test/fixtures/isolate instead.
const TIMEOUT_ENV = { TOOLDOCK_FACTORY_TIMEOUT_MS: "2000" };
const isolateArgs = ["--isolate", "--isolate-timeout", "5000", "--format", "json"];

interface Report {
  summary: { modules: number; errors: number };
  tools: Array<{ name: string }>;
  diagnostics: Diagnostic[];
}

let corpus: PreparedCorpus;
let scratch: string | undefined;
let runnable: PreparedCorpus["cases"];

beforeAll(async () => {
  assertBuilt();
  scratch = await mkdtemp(join(tmpdir(), "tooldock-cli-corpus-"));
  corpus = await prepareCorpus(join(scratch, "corpus"));
  // inProcessOnly needs the loader's file-system seam; `skipped` cases cannot be set up here
  // (chmod 000 as root).
  runnable = corpus.cases.filter((item) => item.skipped === undefined && item.removeDuringScan === undefined);
});

afterAll(async () => {
  await corpus?.cleanup();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

/**
 * The isolated validate of the whole runnable corpus, run once for both tests (a tool host per
 * module: the file's costliest command).
 */
let isolatedRun: ReturnType<typeof runCli> | undefined;
const validateIsolated = () => {
  isolatedRun ??= runCli(["validate", ...runnable.map((item) => item.dir), ...isolateArgs], {
    env: TIMEOUT_ENV,
  });
  return isolatedRun;
};

const inCase = (dir: string) => (diagnostic: Diagnostic) => diagnostic.path.startsWith(`${dir}${sep}`);

describe("tooldock validate --isolate on the loader's broken-module corpus", () => {
  it("finishes with exit 1 and exactly the expected diagnostic for each broken module", async () => {
    expect(runnable.length).toBeGreaterThanOrEqual(38);
    const run = await validateIsolated();
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    const toolNames = report.tools.map((tool) => tool.name);
    for (const { id, dir, expected } of runnable) {
      const found = report.diagnostics.filter(inCase(dir));
      const errors = found.filter((diagnostic) => diagnostic.severity === "error");
      if (expected.severity === "error") {
        expect({ id, errors: errors.map((diagnostic) => diagnostic.code) }).toEqual({
          id,
          errors: [expected.code],
        });
        if (expected.module !== undefined) expect(errors[0]?.path).toBe(join(dir, expected.module));
      } else {
        expect({ id, errors: errors.map((diagnostic) => diagnostic.code) }).toEqual({ id, errors: [] });
        expect({ id, warnings: found.map((diagnostic) => diagnostic.code) }).toEqual({
          id,
          warnings: expect.arrayContaining([expected.code]),
        });
      }
      for (const name of expected.keptTools ?? [])
        expect({ id, toolNames }).toEqual({ id, toolNames: expect.arrayContaining([name]) });
    }
    expect(report.summary.errors).toBe(runnable.filter((item) => item.expected.severity === "error").length);
  }, 180_000);

  it("gives the same code, severity and module for every diagnostic as in-process validate", async () => {
    const paths = runnable.map((item) => item.dir);
    const [isolated, inProcess] = await Promise.all([
      validateIsolated(),
      runCli(["validate", ...paths, "--format", "json"], { env: TIMEOUT_ENV }),
    ]);
    expect(inProcess.code).toBe(1);
    expect(isolated.code).toBe(1);
    // Order can differ: in-process, a fault seen at the end of the batch is reported there.
    const outline = (report: Report) =>
      report.diagnostics
        .map((diagnostic) => `${diagnostic.severity} ${diagnostic.code} ${diagnostic.path}`)
        .sort();
    const isolatedReport = JSON.parse(isolated.stdout) as Report;
    const inProcessReport = JSON.parse(inProcess.stdout) as Report;
    expect(outline(isolatedReport)).toEqual(outline(inProcessReport));
    expect(isolatedReport.tools).toEqual(inProcessReport.tools);
  }, 180_000);
});
