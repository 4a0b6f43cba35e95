import type { ToolEntry } from "../src/report/report-types.js";

/** A report's `ToolEntry` for tool `name` of the module at `path`: visible, not deferrable, no parameters. */
export const toolEntry = (name: string, path: string): ToolEntry => ({
  name,
  label: name,
  description: "d",
  path,
  hidden: false,
  deferrable: false,
  annotations: { title: name },
  parameters: { type: "object" },
});

/** The keys of a report's tool entry, in order (`outputSchema` follows when the tool declares one). */
export const TOOL_ENTRY_KEYS: readonly string[] = [
  "name",
  "label",
  "description",
  "path",
  "hidden",
  "deferrable",
  "annotations",
  "parameters",
];
