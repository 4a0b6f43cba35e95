// Found by a review: when a tool host restarted after a stop and one of its modules now failed
// to load (a settings file broken meanwhile), a call of that module's tool said only that "its
// modules no longer define it … Reload the tools": the model, and the user it tells, learned
// nothing of the error that the new tool host's load had reported.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

const FRAGILE = `
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
if (existsSync(join(process.cwd(), "broken"))) throw new Error("the settings file is broken (missing key 'region')");
export default () => ({
  name: "fragile",
  label: "Fragile",
  description: "Ends its tool host when asked",
  parameters: Type.Object({}),
  async execute() {
    process.exit(2);
  },
});
`;

describe("a tool whose module fails to load when its tool host restarts", () => {
  it("is refused with the load's error", async () => {
    const where = await project({ "fragile.ts": FRAGILE });
    const { session, diagnostics } = await load(where, "process");
    expect(diagnostics).toEqual([]);
    const first = await session.execute({ toolCallId: "1", name: "fragile", params: {} });
    expect(text(first)).toMatch(/It exited with code 2\./);
    await writeFile(join(where.work, "broken"), "");
    const again = await session.execute({ toolCallId: "2", name: "fragile", params: {} });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(
      /its modules no longer define it \(they were loaded again when the tool host restarted\)\. Loading them again reported 1 error: .*the settings file is broken \(missing key 'region'\)\. Reload the tools\./,
    );
  });
});
