import type { Static, TSchema } from "@sinclair/typebox";
import type { z } from "zod";

/** A tool's parameter schema: a TypeBox schema or a zod v4 schema. The top level is an object. */
export type ToolParameters = TSchema | z.ZodType;

/**
 * The type of `params` a tool receives for a parameter schema: `z.output<T>` for zod,
 * `Static<T>` for TypeBox.
 */
export type InferParams<TParams> = TParams extends z.ZodType
  ? z.output<TParams>
  : TParams extends TSchema
    ? Static<TParams>
    : never;
