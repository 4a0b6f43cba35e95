import { type TUnsafe, Type } from "@sinclair/typebox";
import { loadZodModule } from "../load-zod.js";
import { getAgentDir } from "./agent-dir.js";
import { inertTheme } from "./themes.js";
import * as truncation from "./truncation.js";
import {
  inertComponents,
  Key,
  matchesKey,
  TUI_COMPONENT_NAMES,
  truncateToWidth,
  visibleWidth,
} from "./ui-components.js";

/** A module namespace as the host serves it: export name → value. */
export type ModuleNamespace = Record<string, unknown>;

/** The packages of other hosts Tooldock serves stand-ins for, by the name pi published them under. */
export const PI_AI = "@mariozechner/pi-ai";
export const PI_TUI = "@mariozechner/pi-tui";
export const PI_CODING_AGENT = "@mariozechner/pi-coding-agent";
/** opencode's package for tools and plugins. */
export const OPENCODE_PLUGIN = "@opencode-ai/plugin";

/** The copies oh-my-pi and xcsh publish under their own names: each served its pi package's stand-in. */
export const HOST_PACKAGE_ALIASES: Readonly<Record<string, string>> = {
  "@oh-my-pi/pi-ai": PI_AI,
  "@f5-sales-demo/pi-ai": PI_AI,
  "@f5xc-salesdemos/pi-ai": PI_AI,
  "@oh-my-pi/pi-tui": PI_TUI,
  "@f5-sales-demo/pi-tui": PI_TUI,
  "@f5xc-salesdemos/pi-tui": PI_TUI,
  "@oh-my-pi/pi-coding-agent": PI_CODING_AGENT,
  "@f5-sales-demo/xcsh": PI_CODING_AGENT,
  // xcsh's documentation names its package under this scope too.
  "@f5xc-salesdemos/xcsh": PI_CODING_AGENT,
  "@opencode-ai/plugin/tool": OPENCODE_PLUGIN,
};

/** Theme helpers the coding agents export to renderers: each returns an inert theme. */
const THEME_GETTERS = ["getEditorTheme", "getMarkdownTheme", "getSelectListTheme", "getSettingsListTheme"];

/** `@mariozechner/pi-ai`: `StringEnum` and TypeBox's `Type` (pi-ai re-exports it). */
export function piAiNamespace(typebox: ModuleNamespace): ModuleNamespace {
  return Object.freeze({ StringEnum, Type: typebox.Type });
}

/** `@mariozechner/pi-tui`: inert components and two plain-text width helpers. */
export function piTuiNamespace(): ModuleNamespace {
  return Object.freeze({
    ...inertComponents(TUI_COMPONENT_NAMES),
    Key,
    matchesKey,
    truncateToWidth,
    visibleWidth,
  });
}

/**
 * `@mariozechner/pi-coding-agent` (and forks; also `pi.pi`): the Tooldock SDK, plus what those
 * agents re-export for tools: `StringEnum`, `Type`, pi's output truncation helpers
 * (`truncateHead`, `formatSize`, …), `getAgentDir`, some components, inert theme helpers, `theme`.
 */
export function piCodingAgentNamespace(sdk: ModuleNamespace, typebox: ModuleNamespace): ModuleNamespace {
  const { default: _default, ...namespace } = sdk;
  return Object.freeze({
    ...namespace,
    StringEnum,
    Type: typebox.Type,
    ...truncation,
    getAgentDir,
    ...inertComponents(["Container", "DynamicBorder", "Markdown", "Spacer", "Text"]),
    ...Object.fromEntries(THEME_GETTERS.map((name) => [name, () => inertTheme()])),
    theme: inertTheme(),
  });
}

/** `@opencode-ai/plugin`: `tool()` returns its input, `tool.schema` is the host's zod 4 (loaded on read). */
export function opencodePluginNamespace(): ModuleNamespace {
  const tool = (input: unknown) => input;
  Object.defineProperty(tool, "schema", { get: () => loadZodModule("zod").z, enumerable: true });
  return Object.freeze({ tool });
}

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
