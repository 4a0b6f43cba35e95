import { Kind } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";

/**
 * Attack (issue 14, item 2): oh-my-pi and xcsh tools take `StringEnum`, `Type` and UI
 * components from `pi.pi` (`const { StringEnum, Text } = pi.pi`). `pi.pi` held only the
 * Tooldock SDK, so the factory threw `pi.pi.StringEnum is not a function`, the most common
 * factory throw of the corpus. Fixed: `pi.pi` is the SDK plus those names.
 */
describe("pi.pi", () => {
  const pi = new ToolHost({ cwd: "/" }).createAPI().pi as unknown as Record<string, unknown> & {
    StringEnum(values: string[], options?: { description?: string }): Record<string | symbol, unknown>;
    Text: new (text: string, x?: number, y?: number) => { render(width: number): string[] };
  };

  it("has a StringEnum that builds a plain JSON Schema enum", () => {
    const schema = pi.StringEnum(["a", "b"], { description: "pick" });
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: "string",
      enum: ["a", "b"],
      description: "pick",
    });
    expect(schema[Kind]).toBe("Unsafe");
  });

  it("has Type, the inert components, theme helpers and the SDK", () => {
    expect(pi.Type).toBe((new ToolHost().createAPI().typebox as { Type: unknown }).Type);
    expect(new pi.Text("hi", 0, 0).render(10)).toEqual(["hi"]);
    for (const name of [
      "Container",
      "Markdown",
      "Spacer",
      "getMarkdownTheme",
      "textResult",
      "TooldockError",
    ]) {
      expect(typeof pi[name], name).toBe("function");
    }
  });
});
