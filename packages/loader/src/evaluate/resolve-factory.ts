/**
 * The factory a module exports: `module.default ?? module`, or its `.default` (CommonJS compiled
 * from ESM, `exports.default = …`); `undefined` when there is none.
 */
export function resolveFactory(moduleValue: unknown): ((...args: unknown[]) => unknown) | undefined {
  const first = readDefault(moduleValue) ?? moduleValue;
  if (typeof first === "function") return first as (...args: unknown[]) => unknown;
  const second = readDefault(first);
  return typeof second === "function" ? (second as (...args: unknown[]) => unknown) : undefined;
}

function readDefault(value: unknown): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  return (value as { default?: unknown }).default;
}

/** Describes what a module exports instead of a factory, for the `E_NO_FACTORY` message. */
export function describeExports(moduleValue: unknown): string {
  if (typeof moduleValue !== "object" || moduleValue === null)
    return `its exports are ${String(moduleValue)}`;
  const names = Object.keys(moduleValue).filter((name) => name !== "__esModule");
  if (names.length === 0) return "it exports nothing";
  const fallback = readDefault(moduleValue);
  if (fallback === null) return "its default export is null";
  if (Array.isArray(fallback)) return "its default export is an array";
  if (typeof fallback === "object") return "its default export is an object";
  if (fallback !== undefined) return `its default export is a ${typeof fallback}`;
  return `it has no default export (exports: ${names.slice(0, 8).join(", ")}${names.length > 8 ? ", …" : ""})`;
}
