import type { CustomTool, CustomToolFactory } from "./types/custom-tool.js";
import type { ToolParameters } from "./types/schema.js";

/**
 * Declares a tool. It returns its argument unchanged; its job is type inference:
 * `params` in `execute` is typed from `parameters`, whether a TypeBox or a zod v4 schema.
 *
 * @example
 * ```ts
 * const greet = defineTool({
 *   name: "greet",
 *   label: "Greet",
 *   description: "Say hello to someone",
 *   parameters: Type.Object({ name: Type.String() }),
 *   async execute(_id, params) {
 *     return textResult(`Hello, ${params.name}!`); // params.name: string
 *   },
 * });
 * ```
 */
export function defineTool<TParams extends ToolParameters, TDetails = unknown>(
  tool: CustomTool<TParams, TDetails>,
): CustomTool<TParams, TDetails> {
  return tool;
}

/**
 * Declares a tool module's default export. Identity at run time; gives `pi` its type.
 *
 * @example
 * ```ts
 * export default defineToolFactory((pi) => {
 *   const { Type } = pi.typebox;
 *   return defineTool({ name: "now", label: "Now", description: "Current time",
 *     parameters: Type.Object({}), execute: async () => textResult(new Date().toISOString()) });
 * });
 * ```
 */
export function defineToolFactory<TFactory extends CustomToolFactory>(factory: TFactory): TFactory {
  return factory;
}
