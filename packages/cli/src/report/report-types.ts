import type { Diagnostic, ToolAnnotations } from "@tooldock/sdk";

/** One loaded tool as the reports show it (docs/contract.md §6, `tools[]`). */
export interface ToolEntry {
  name: string;
  label: string;
  description: string;
  /** The module that defined it, as discovery found it. */
  path: string;
  hidden: boolean;
  deferrable: boolean;
  /**
   * The annotations MCP clients are given (`tooldock mcp`): `title` (the label), Tooldock's
   * defaults (a deferrable tool is read-only), then what the tool declared, which wins.
   */
  annotations: ToolAnnotations;
  /** JSON Schema of the parameters. */
  parameters: Record<string, unknown>;
  /** JSON Schema of the tool's `structuredContent`, when it declares an `outputSchema`. */
  outputSchema?: Record<string, unknown>;
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
