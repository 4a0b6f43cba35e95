import { asSchema } from "@tooldock/runtime";
import { describeError } from "../diagnostics.js";

/**
 * Why a tool's `parameters` cannot be used, or `undefined` when they convert to a JSON Schema
 * whose top level is an object (via the runtime's `asSchema`, the same conversion a session
 * uses when it offers the tool to a model) and its validator compiles: a schema that cannot
 * be validated is a load diagnostic, never a failure of every call.
 */
export function checkToolSchema(parameters: unknown): string | undefined {
  try {
    const schema = asSchema(parameters);
    if (schema.jsonSchema.type !== "object") return "the top level of the schema is not an object";
    schema.prepare?.();
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}
