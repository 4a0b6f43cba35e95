import { Kind, type TSchema, TypeRegistry } from "@sinclair/typebox";

const CHECKED_IN_TOOL_HOST = "TooldockCheckedInToolHost";

/**
 * The parameters (and output schema) of a proxy tool: the JSON Schema the tool host described,
 * sent to providers and clients as it is, and accepting any value in the host's session (a
 * TypeBox kind of its own). The tool host checks the arguments against the tool's real schema
 * (zod transforms and refinements included), and its message is the one the model sees, word
 * for word as in-process.
 */
export function proxyParameters(jsonSchema: Record<string, unknown>): TSchema {
  if (!TypeRegistry.Has(CHECKED_IN_TOOL_HOST)) TypeRegistry.Set(CHECKED_IN_TOOL_HOST, () => true);
  return { ...jsonSchema, [Kind]: CHECKED_IN_TOOL_HOST } as TSchema;
}
