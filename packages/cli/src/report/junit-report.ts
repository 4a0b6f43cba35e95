import type { Diagnostic } from "@tooldock/sdk";
import { displayPath, formatDiagnosticText } from "./diagnostic-text.js";
import { groupByModule } from "./group-by-module.js";
import type { LoadReport } from "./report-types.js";
import { escapeXml, xmlAttributes } from "./xml.js";

/**
 * JUnit XML for CI: one `<testsuite>` per module (named by its path relative to `cwd` when it
 * lies inside it, as the pretty report shows it); in it one passing `<testcase>` per tool (or
 * one `loads` case for a module with neither tools nor findings) and one failing `<testcase>`
 * per error diagnostic (with `strict`, per warning too). Every case carries `file` (the same
 * path) and a failing case with a source location also `line`, the attributes CI annotators
 * read. Warnings that do not fail go to the suite's `<system-out>`.
 */
export function formatJunitReport(load: LoadReport, options: { strict: boolean; cwd: string }): string {
  const fails = (diagnostic: Diagnostic) => diagnostic.severity === "error" || options.strict;
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const module of groupByModule(load)) {
    const cases: string[] = [];
    const file = displayPath(module.path, options.cwd);
    const classname = file;
    for (const tool of module.tools) {
      cases.push(`    <testcase ${xmlAttributes({ classname, name: tool.name, file })}/>`);
    }
    const failing = module.diagnostics.filter(fails);
    for (const diagnostic of failing) {
      const name = `${diagnostic.toolName ? `${diagnostic.toolName}: ` : ""}${diagnostic.code}`;
      const body = escapeXml(formatDiagnosticText(diagnostic, options.cwd));
      const failure = `<failure ${xmlAttributes({ message: diagnostic.message, type: diagnostic.code })}>${body}</failure>`;
      const where = xmlAttributes({ classname, name, file, line: diagnostic.location?.line });
      cases.push(`    <testcase ${where}>\n      ${failure}\n    </testcase>`);
    }
    if (cases.length === 0)
      cases.push(`    <testcase ${xmlAttributes({ classname, name: "loads", file })}/>`);
    const notes = module.diagnostics.filter((diagnostic) => !fails(diagnostic));
    const out = notes.length
      ? `\n    <system-out>${escapeXml(notes.map((note) => formatDiagnosticText(note, options.cwd)).join("\n\n"))}</system-out>`
      : "";
    tests += cases.length;
    failures += failing.length;
    const attributes = xmlAttributes({
      name: file,
      tests: cases.length,
      failures: failing.length,
      errors: 0,
    });
    suites.push(`  <testsuite ${attributes}>\n${cases.join("\n")}${out}\n  </testsuite>`);
  }
  const root = xmlAttributes({ name: "tooldock validate", tests, failures, errors: 0 });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${root}>\n${suites.join("\n")}\n</testsuites>\n`;
}
