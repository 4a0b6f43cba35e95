import type { Diagnostic } from "@tooldock/sdk";

/** One loaded tool as the reports show it (docs/contract.md §6, `tools[]`). */
export interface ToolEntry {
  name: string;
  label: string;
  description: string;
  /** The module that defined it, as discovery found it. */
  path: string;
  hidden: boolean;
  deferrable: boolean;
  /** JSON Schema of the parameters. */
  parameters: Record<string, unknown>;
}

/** What a load produced, in the shape every reporter reads. */
export interface LoadReport {
  /** Every module discovery found (paths as discovery reports them). */
  modules: Array<{ path: string; resolvedPath: string }>;
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
}

/** The `--json` / `--format json` document of `list` and `validate` (docs/contract.md §6). */
export interface ReportDocument {
  ok: boolean;
  summary: { modules: number; tools: number; errors: number; warnings: number };
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
}
