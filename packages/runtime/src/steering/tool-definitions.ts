import { asSchema } from "../schema/as-schema.js";
import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";

/** A provider-neutral tool definition: what every adapter needs of a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments; its top level is always `type: "object"`. */
  parameters: { type: "object"; [key: string]: unknown };
}

/** What a session offers the model now: its active tools and its tool choice. */
export function steeringOf(session: Session): { tools: ToolDefinition[]; choice: ToolChoice } {
  const tools = session.activeTools().map((tool) => ({
    name: tool.name,
    description: tool.description,
    // asSchema is cached per schema object and guarantees an object top level.
    parameters: asSchema(tool.parameters).jsonSchema as ToolDefinition["parameters"],
  }));
  return { tools, choice: session.toolChoice() };
}
