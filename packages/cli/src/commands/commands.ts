import { callCommand } from "./call-command.js";
import type { Command } from "./command.js";
import { demoCommand } from "./demo-command.js";
import { initCommand } from "./init-command.js";
import { listCommand } from "./list-command.js";
import { mcpCommand } from "./mcp-command.js";
import { schemaCommand } from "./schema-command.js";
import { validateCommand } from "./validate-command.js";

/** Every command, in the order `tooldock --help` lists them. */
export const COMMANDS: readonly Command[] = [
  listCommand,
  validateCommand,
  callCommand,
  schemaCommand,
  initCommand,
  demoCommand,
  mcpCommand,
];
