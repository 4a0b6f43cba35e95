import { type TUnsafe, Type } from "@sinclair/typebox";

/** Options of {@link StringEnum}, as pi's own helper takes them. */
export interface StringEnumOptions<T extends string> {
  description?: string;
  default?: T;
}

/**
 * A string enum as pi builds it: `Type.Unsafe` over `{ type: "string", enum: [...] }`, not a
 * union of literals (Gemini rejects `anyOf` enums). The runtime validates it by its JSON Schema.
 *
 * @example
 * ```ts
 * const Action = StringEnum(["list", "add"] as const, { description: "What to do" });
 * ```
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: StringEnumOptions<T[number]> = {},
): TUnsafe<T[number]> {
  if (!Array.isArray(values) || !values.every((value) => typeof value === "string")) {
    throw new TypeError('StringEnum takes an array of strings, e.g. StringEnum(["list", "add"]).');
  }
  return Type.Unsafe<T[number]>({
    type: "string",
    enum: [...values],
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.default === undefined ? {} : { default: options.default }),
  });
}
