import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDescriptions, lintTopLevelObject } from "./description-lints.js";
import { lintOpenAIStrict } from "./openai-strict.js";
import { lintProviderNames } from "./provider-name-rules.js";

/** The `--strict` finding when nothing was loaded: a wrong path or an empty folder must not pass CI. */
export const NOTHING_TO_VALIDATE = "W_NOTHING_TO_VALIDATE";

/**
 * The contract lints `validate --strict` adds, as warnings (which `--strict` then fails on):
 * descriptions, a top-level object schema, provider name rules and OpenAI strict mode; and,
 * when no tool was loaded at all, {@link NOTHING_TO_VALIDATE}.
 */
export function lintTools(tools: readonly ToolEntry[]): Diagnostic[] {
  if (tools.length === 0) {
    return [
      {
        code: NOTHING_TO_VALIDATE,
        severity: "warning",
        message: "No tool was loaded, so there is nothing to validate.",
        path: ".",
        hint:
          'Check the paths given to validate (or the "tooldock" field of package.json) and that the ' +
          "modules there export tools; --strict fails on an empty result so a wrong path cannot pass CI.",
      },
    ];
  }
  return tools.flatMap((tool) => [
    ...lintDescriptions(tool),
    ...lintTopLevelObject(tool),
    ...lintProviderNames(tool),
    ...lintOpenAIStrict(tool),
  ]);
}
