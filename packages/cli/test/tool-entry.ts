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
