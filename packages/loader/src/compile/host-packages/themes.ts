/**
 * Inert stand-ins for the theme helpers pi, oh-my-pi and xcsh export to tool renderers
 * (`getMarkdownTheme()`, `theme.fg("accent", text)`, …). Tooldock has no terminal, so every
 * styling function returns its text unchanged: the last string argument it was given.
 */

function unstyled(...args: unknown[]): string {
  return (args.findLast((arg) => typeof arg === "string") as string | undefined) ?? "";
}

/**
 * A theme whose every member (a `Proxy`: any name a renderer reads) returns its text; `then` and
 * symbol keys are absent, so a theme is never mistaken for a promise or a primitive.
 */
export function inertTheme(): Record<string, (...args: unknown[]) => string> {
  return new Proxy(Object.create(null) as Record<string, (...args: unknown[]) => string>, {
    get(_target, key) {
      if (typeof key !== "string" || key === "then" || key === "toJSON") return undefined;
      return unstyled;
    },
    has(_target, key) {
      return typeof key === "string" && key !== "then";
    },
  });
}
