// Found by a review: when the tool host that replaces a stopped one stopped before it reported
// its tools (here a module whose top level now waits for a database that is down), the call
// said only "A new one stopped before it reported its tools. It did not load its modules
// within …", where the load's own diagnostic adds the last lines the tool host printed, which
// say why.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

const FRAGILE = `
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
if (existsSync(join(process.cwd(), "database-down"))) {
  console.error("fragile: waiting for the database at 127.0.0.1:5432");
  await new Promise(() => {});
}
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

describe("a tool host that stops again while it restarts", () => {
  it("says what it printed, as the load does", async () => {
    const where = await project({ "fragile.ts": FRAGILE });
    // Long enough for a first load on a busy machine: the restart's load waits for all of it.
    const { session, diagnostics } = await load(where, { mode: "process", loadTimeoutMs: 5_000 });
    expect(diagnostics).toEqual([]);
    const first = await session.execute({ toolCallId: "1", name: "fragile", params: {} });
    expect(text(first)).toMatch(/It exited with code 2\./);
    await writeFile(join(where.work, "database-down"), "");
    const again = await session.execute({ toolCallId: "2", name: "fragile", params: {} });
    expect(again.isError).toBe(true);
    expect(text(again)).toContain(
      "A new one stopped before it reported its tools. It did not load its modules within 5000 ms (isolation.loadTimeoutMs).\n" +
        "fragile: waiting for the database at 127.0.0.1:5432",
    );
  });
});
