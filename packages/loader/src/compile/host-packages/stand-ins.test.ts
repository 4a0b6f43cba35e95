import { Kind } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { StringEnum } from "./namespaces.js";
import { inertTheme } from "./themes.js";
import { inertComponents, Key, matchesKey, truncateToWidth, visibleWidth } from "./ui-components.js";

describe("StringEnum", () => {
  it("is a Type.Unsafe string enum with its description and default", () => {
    const schema = StringEnum(["a", "b"] as const, { description: "pick", default: "a" });
    expect(schema[Kind]).toBe("Unsafe");
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: "string",
      enum: ["a", "b"],
      description: "pick",
      default: "a",
    });
  });

  it("says what it takes when given something else", () => {
    expect(() => StringEnum("a" as never)).toThrow(/takes an array of strings/);
  });
});

describe("inert components", () => {
  const { Container, Text, Spacer } = inertComponents(["Container", "Text", "Spacer"]);

  it("take any arguments, do nothing, and render the text they were given", () => {
    if (Container === undefined || Text === undefined || Spacer === undefined) throw new Error("missing");
    const box = new Container();
    const text = new Text("one\ntwo", 0, 0);
    box.addChild(text);
    box.addChild(new Spacer(1));
    box.addChild("not a component");
    text.setText("three");
    text.invalidate();
    box.handleInput("x");
    expect(box.render(80)).toEqual(["three"]);
    expect(text.constructor.name).toBe("Text");
    expect(inertComponents(["Text"]).Text).toBe(Text);
  });

  it("measure and cut plain text, ignoring colour codes", () => {
    expect(visibleWidth("\u001b[31mred\u001b[0m")).toBe(3);
    expect(truncateToWidth("abcdef", 4)).toBe("abc…");
    expect(truncateToWidth("abc", 4)).toBe("abc");
  });
});

describe("inertTheme", () => {
  it("returns the text unchanged from any styling function, and is never a thenable", async () => {
    const theme = inertTheme();
    expect(theme.fg?.("accent", "hi")).toBe("hi");
    expect(theme.heading?.("title")).toBe("title");
    expect(theme.bold?.()).toBe("");
    expect("then" in theme).toBe(false);
    expect(await Promise.resolve(theme)).toBe(theme);
  });

  it("pi-tui's Key and matchesKey: key ids, and the legacy sequences of a terminal", () => {
    const ctrl = Key.ctrl as (key: string) => string;
    expect([Key.enter, Key.escape, ctrl("c"), (Key.ctrlShift as (key: string) => string)("p")]).toEqual([
      "enter",
      "escape",
      "ctrl+c",
      "ctrl+shift+p",
    ]);
    expect(matchesKey("\r", Key.enter)).toBe(true);
    expect(matchesKey("\u001b", "escape")).toBe(true);
    expect(matchesKey("\u0003", ctrl("c"))).toBe(true);
    expect(matchesKey("\u001b[A", "up")).toBe(true);
    expect(matchesKey("\u001b[Z", "shift+tab")).toBe(true);
    expect(matchesKey("\u001bx", "alt+x")).toBe(true);
    expect(matchesKey("q", "q")).toBe(true);
    expect(matchesKey("\r", "escape")).toBe(false);
    expect(matchesKey("\u0003", "ctrl+d")).toBe(false);
    expect(matchesKey(undefined, "enter")).toBe(false);
  });
});
