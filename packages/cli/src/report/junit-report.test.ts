import type { Diagnostic } from "@tooldock/sdk";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { formatJunitReport } from "./junit-report.js";
import type { LoadReport, ToolEntry } from "./report-types.js";

const tool = (name: string, path: string): ToolEntry => ({
  name,
  label: name,
  description: `${name} does things`,
  path,
  hidden: false,
  deferrable: false,
  annotations: {},
  parameters: { type: "object", properties: {} },
});

const error = (path: string, code: Diagnostic["code"], message: string, toolName?: string): Diagnostic => ({
  code,
  severity: "error",
  message,
  path,
  toolName,
});

const load: LoadReport = {
  modules: [
    { path: "/p/good.ts", resolvedPath: "/p/good.ts" },
    { path: "/p/bad.ts", resolvedPath: "/p/bad.ts" },
    { path: "/p/empty.ts", resolvedPath: "/p/empty.ts" },
  ],
  tools: [tool("a", "/p/good.ts"), tool("b", "/p/good.ts")],
  diagnostics: [
    error("/p/bad.ts", "E_COMPILE", 'Expected ";" but found <x & "y">\u0007'),
    error("/p/bad.ts", "E_NAME_INVALID", "bad name 'x y'", "x y"),
    error("/p/missing", "E_DISCOVERY", "no such file"),
    { code: "W_SLOW", severity: "warning", message: "slow factory", path: "/p/good.ts" },
  ],
};

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testsuite", "testcase"].includes(name),
  }).parse(xml);

describe("formatJunitReport", () => {
  it("is well-formed XML even with markup and control characters in messages", () => {
    const xml = formatJunitReport(load, { strict: false, cwd: "/p" });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain("&lt;x &amp; &quot;y&quot;&gt;");
    expect(xml).not.toContain("\u0007");
  });

  it("has one passing case per tool and one failing case per error", () => {
    const document = parse(formatJunitReport(load, { strict: false, cwd: "/p" }));
    const suites = document.testsuites.testsuite as Array<{
      name: string;
      testcase: Array<Record<string, unknown>>;
    }>;
    expect(document.testsuites.failures).toBe("3");
    expect(suites.map((suite) => suite.name)).toEqual(["good.ts", "bad.ts", "empty.ts", "missing"]);
    expect(suites[0]?.testcase.map((testcase) => testcase.name)).toEqual(["a", "b"]);
    const failures = suites.flatMap((suite) => suite.testcase.filter((testcase) => "failure" in testcase));
    expect(failures.map((testcase) => (testcase.failure as { type: string }).type)).toEqual([
      "E_COMPILE",
      "E_NAME_INVALID",
      "E_DISCOVERY",
    ]);
    expect(suites[1]?.testcase[1]?.name).toBe("x y: E_NAME_INVALID");
    expect(suites[2]?.testcase.map((testcase) => testcase.name)).toEqual(["loads"]);
  });

  it("keeps warnings out of the failures unless strict", () => {
    const relaxed = parse(formatJunitReport(load, { strict: false, cwd: "/p" }));
    expect(relaxed.testsuites.testsuite[0]["system-out"]).toContain("W_SLOW");
    const strict = parse(formatJunitReport(load, { strict: true, cwd: "/p" }));
    expect(strict.testsuites.failures).toBe("4");
  });

  it("writes each failure with location, message and hint", () => {
    const xml = formatJunitReport(load, { strict: false, cwd: "/p" });
    expect(xml).toContain("error E_DISCOVERY missing");
    expect(xml).toContain("hint: Check that the path exists and is readable.");
  });
});
