import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a bug hunt of pi's extension dialect (pi's plan-mode example): the stand-in for
// pi-tui's `Key` had four modifier helpers of pi-tui's ten and none of its symbol, page or
// function keys, so `pi.registerShortcut(Key.ctrlAlt("p"), …)` failed the whole module as
// E_FACTORY_THROW "Key.ctrlAlt is not a function", for a feature Tooldock ignores anyway.
describe("pi-tui's Key, as an extension uses it", () => {
  it("has every modifier helper and key name, so the extension loads", async () => {
    const where = await project({
      "keys.ts": `import { Key } from "@mariozechner/pi-tui";
export default (pi) => {
  pi.registerShortcut(Key.ctrlAlt("p"), { description: "plan", handler: () => {} });
  const ids = [
    Key.ctrlShiftAlt("x"), Key.altShift("y"), Key.shiftCtrl("z"), Key.altCtrl(Key.comma),
    Key.shiftAlt(Key.f5), Key.pageUp, Key.pageDown, Key.insert, Key.backslash, Key.question,
  ];
  pi.registerTool({
    name: "keys",
    label: "Keys",
    description: "Answers the key ids it made",
    parameters: pi.typebox.Type.Object({}),
    async execute() { return { content: [{ type: "text", text: ids.join(" ") }] }; },
  });
};
`,
    });
    const { session, tools, diagnostics } = await load(where, undefined);
    expect(diagnostics.map(({ code }) => code)).toEqual(["W_EXTENSION_FEATURE"]);
    expect(tools.map(({ tool }) => tool.name)).toEqual(["keys"]);
    const result = await session.execute({ toolCallId: "1", name: "keys", params: {} });
    expect(text(result)).toBe(
      "ctrl+shift+alt+x alt+shift+y shift+ctrl+z alt+ctrl+, shift+alt+f5 pageUp pageDown insert \\ ?",
    );
  });
});
