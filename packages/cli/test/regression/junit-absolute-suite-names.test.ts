// Attack (on CI annotations): `validate --format junit` named each <testsuite> by the module's
// absolute path, although both READMEs said relative, so reports differed between machines
// and CI checkouts; and the <testcase>s had no `file` / `line`, the attributes annotators such
// as action-junit-report read to put a failure on the right line. Suites are now named by the
// path relative to the working folder (a path outside it stays absolute), every case has
// `file`, and a failure with a source location has `line`.
import type { Diagnostic } from "@tooldock/sdk";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { formatJunitReport } from "../../src/report/junit-report.js";
import type { LoadReport } from "../../src/report/report-types.js";

const cwd = "/home/ci/checkout";
const compileError: Diagnostic = {
  code: "E_COMPILE",
  severity: "error",
  message: 'Expected ";"',
  path: `${cwd}/tools/broken.ts`,
  location: { line: 7, column: 3, lineText: "  const x = ;" },
};
const load: LoadReport = {
  modules: [
    { path: `${cwd}/tools/good.ts`, resolvedPath: `${cwd}/tools/good.ts` },
    { path: `${cwd}/tools/broken.ts`, resolvedPath: `${cwd}/tools/broken.ts` },
    { path: "/opt/shared/tool.ts", resolvedPath: "/opt/shared/tool.ts" },
  ],
  tools: [
    {
      name: "good",
      label: "Good",
      description: "A good tool.",
      path: `${cwd}/tools/good.ts`,
      hidden: false,
      deferrable: false,
      annotations: {},
      parameters: { type: "object", properties: {} },
    },
  ],
  diagnostics: [compileError],
};

type Case = { name: string; file?: string; line?: string; failure?: unknown };
const suitesOf = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => name === "testsuite" || name === "testcase",
  }).parse(xml).testsuites.testsuite as Array<{ name: string; testcase: Case[] }>;

describe("JUnit suites and cases say where, relative to the working folder", () => {
  const suites = suitesOf(formatJunitReport(load, { strict: false, cwd }));

  it("names suites by relative paths (a path outside the working folder stays absolute)", () => {
    expect(suites.map((suite) => suite.name)).toEqual([
      "tools/good.ts",
      "tools/broken.ts",
      "/opt/shared/tool.ts",
    ]);
  });

  it("gives every case a file, and a located failure its line", () => {
    const cases = suites.flatMap((suite) => suite.testcase);
    expect(cases.map((testcase) => [testcase.name, testcase.file, testcase.line])).toEqual([
      ["good", "tools/good.ts", undefined],
      ["E_COMPILE", "tools/broken.ts", "7"],
      ["loads", "/opt/shared/tool.ts", undefined],
    ]);
  });
});
