import { describe, expect, it } from "vitest";
import { buildReport } from "./build-report.js";
import type { LoadReport } from "./report-types.js";

const base: LoadReport = { modules: [{ path: "/a.ts", resolvedPath: "/a.ts" }], tools: [], diagnostics: [] };
const warning = { code: "W_X" as const, severity: "warning" as const, message: "m", path: "/a.ts" };
const error = { code: "E_IMPORT" as const, severity: "error" as const, message: "m", path: "/a.ts" };

describe("buildReport", () => {
  it("has exactly the keys of docs/contract.md §6", () => {
    expect(Object.keys(buildReport(base, { strict: false }))).toEqual([
      "ok",
      "summary",
      "tools",
      "diagnostics",
    ]);
    expect(buildReport(base, { strict: false }).summary).toEqual({
      modules: 1,
      tools: 0,
      errors: 0,
      warnings: 0,
    });
  });

  it("is not ok exactly when there is an error, or with strict a warning", () => {
    expect(buildReport({ ...base, diagnostics: [warning] }, { strict: false }).ok).toBe(true);
    expect(buildReport({ ...base, diagnostics: [warning] }, { strict: true }).ok).toBe(false);
    const failed = buildReport({ ...base, diagnostics: [error, warning] }, { strict: false });
    expect(failed.ok).toBe(false);
    expect(failed.summary).toMatchObject({ errors: 1, warnings: 1 });
  });
});
