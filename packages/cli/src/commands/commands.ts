import type { Command } from "./command.js";
import {
  callSpec,
  demoSpec,
  initSpec,
  listSpec,
  mcpSpec,
  pendingSpec,
  schemaSpec,
  validateSpec,
} from "./command-specs.js";
import { inspectSpec } from "./inspect-spec.js";

/**
 * Every command, in the order `tooldock --help` lists them. Each module is imported only when
 * its command runs (a static import here would make every command pay for all of them).
 */
export const COMMANDS: readonly Command[] = [
  { spec: listSpec, load: () => import("./list-command.js") },
  { spec: validateSpec, load: () => import("./validate-command.js") },
  { spec: callSpec, load: () => import("./call-command.js") },
  { spec: pendingSpec, load: () => import("./pending-command.js") },
  { spec: schemaSpec, load: () => import("./schema-command.js") },
  { spec: initSpec, load: () => import("./init-command.js") },
  { spec: demoSpec, load: () => import("./demo-command.js") },
  { spec: mcpSpec, load: () => import("./mcp-command.js") },
  { spec: inspectSpec, load: () => import("./inspect-command.js") },
];
