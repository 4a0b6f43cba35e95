import type { Diagnostic } from "@tooldock/sdk";

/** What to do about each code, for a diagnostic that carries no hint of its own. */
const DEFAULT_HINTS: Record<string, string> = {
  E_DISCOVERY: "Check that the path exists and is readable.",
  E_NOT_EXECUTABLE: "Point at the tool's .ts or .js module; .md and .json files are metadata.",
  E_COMPILE: "Fix the syntax or type-level error at the location shown.",
  E_IMPORT:
    "The module threw while it was imported; move side effects into the factory and check its imports.",
  E_NO_FACTORY: "Default-export a factory: `export default defineToolFactory((pi) => ({ ... }))`.",
  E_FACTORY_THROW: "The factory threw; catch the failure or fix what it depends on.",
  E_FACTORY_TIMEOUT:
    "Make the factory settle faster, or raise its deadline: the loader's factoryTimeoutMs, the CLI's TOOLDOCK_FACTORY_TIMEOUT_MS.",
  E_PROCESS_EXIT: "Do not call process.exit in a tool module; throw an error instead.",
  E_INVALID_TOOL: "Return objects with name, label, description, parameters and execute.",
  E_INVALID_SCHEMA: "Use a TypeBox `Type.Object(...)` or a zod `z.object(...)` as `parameters`.",
  E_NAME_INVALID:
    "Use a name matching /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/ that is not reserved (resolve, built-ins).",
  E_NAME_CONFLICT: "Rename one of the two tools; names are unique in a session.",
};

/** The diagnostic's own hint, or the default for its code (every diagnostic the loader makes has one). */
export function hintFor(diagnostic: Diagnostic): string {
  return diagnostic.hint ?? DEFAULT_HINTS[diagnostic.code] ?? "See the message above.";
}
