/**
 * What is wrong with the shape of one entry a factory returned, or an empty list when it is
 * a tool: `name`, `label` and `description` strings, a `parameters` object, an `execute`
 * function, and `onSession` a function when present.
 */
export function checkToolShape(entry: unknown): string[] {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return [`it is ${entry === undefined ? "undefined" : describeValue(entry)}, not an object`];
  }
  const tool = entry as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of ["name", "label", "description"] as const) {
    if (typeof tool[field] !== "string")
      problems.push(`"${field}" is ${describeValue(tool[field])}, not a string`);
  }
  if (typeof tool.parameters !== "object" || tool.parameters === null) {
    problems.push(`"parameters" is ${describeValue(tool.parameters)}, not a schema`);
  }
  if (typeof tool.execute !== "function")
    problems.push(`"execute" is ${describeValue(tool.execute)}, not a function`);
  if (tool.onSession !== undefined && typeof tool.onSession !== "function") {
    problems.push(`"onSession" is ${describeValue(tool.onSession)}, not a function`);
  }
  return problems;
}

/** A short description of a value's kind for messages: `missing`, `null`, `an array`, `a number`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const kind = typeof value;
  return kind === "object" ? "an object" : `a ${kind}`;
}
