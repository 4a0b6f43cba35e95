/**
 * A deep copy of the arguments for the tool to own, so a tool that mutates its `params`
 * cannot change the host's record of what the model sent. Arguments from a model are JSON
 * and always copy; a value `structuredClone` refuses (a function, a class with private
 * state) is passed as is.
 */
export function copyParams(params: unknown): unknown {
  try {
    return structuredClone(params);
  } catch {
    return params;
  }
}
