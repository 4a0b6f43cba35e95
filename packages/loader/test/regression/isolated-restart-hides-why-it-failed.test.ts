// Found by a review: a tool host restarted after a stop said less than the load does about
// why it failed. One that stopped before it reported its tools (here a module whose top level
// now waits for a database that is down) said only "A new one stopped before it reported its
// tools. It did not load its modules within …", where the load's diagnostic adds the last lines
// the tool host printed. One whose module now failed to load (a settings file broken
// meanwhile) refused that module's tool saying only that "its modules no longer define it …
// Reload the tools": the model, and the user it tells, learned nothing of the load's error.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

/** A tool whose call ends its tool host, and whose module runs `broken` once `broken` exists in the working folder. */
const fragile = (broken: string) => `
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
if (existsSync(join(process.cwd(), "broken"))) {
  ${broken}
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

/**
 * Loads `fragile(broken)`, ends its tool host with a call, breaks it, and calls it again: what
 * that call said, and the diagnostics of each tool host started after the load's.
 */
async function callAfterBreaking(
  broken: string,
  options: { loadTimeoutMs?: number } = {},
): Promise<{ said: string; restarts: Diagnostic[][] }> {
  const where = await project({ "fragile.ts": fragile(broken) });
  const { session, diagnostics, isolated } = await load(where, { mode: "process", ...options });
  expect(diagnostics).toEqual([]);
  const restarts: Diagnostic[][] = [];
  isolated?.subscribe((event) => {
    if (event.type === "tool-host-started") restarts.push(event.diagnostics);
  });
  const first = await session.execute({ toolCallId: "1", name: "fragile", params: {} });
  expect(text(first)).toMatch(/It exited with code 2\./);
  await writeFile(join(where.work, "broken"), "");
  const again = await session.execute({ toolCallId: "2", name: "fragile", params: {} });
  expect(again.isError).toBe(true);
  return { said: text(again), restarts };
}

describe("a tool host that fails as it restarts", () => {
  it("stopping before it reports its tools, says what it printed", async () => {
    const { said, restarts } = await callAfterBreaking(
      `console.error("fragile: waiting for the database at 127.0.0.1:5432");\n  await new Promise(() => {});`,
      // Long enough for a first load on a busy machine: the restart's load waits for all of it.
      { loadTimeoutMs: 5_000 },
    );
    expect(said).toContain(
      "A new one stopped before it reported its tools. It did not load its modules within 5000 ms (isolation.loadTimeoutMs).\n" +
        "fragile: waiting for the database at 127.0.0.1:5432",
    );
    expect(restarts).toEqual([]); // none reported its tools
  });

  it("whose module fails to load, refuses its tool with the load's error", async () => {
    const { said, restarts } = await callAfterBreaking(
      `throw new Error("the settings file is broken (missing key 'region')");`,
    );
    expect(said).toMatch(
      /its modules no longer define it \(they were loaded again when the tool host restarted\)\. Loading them again reported 1 error: .*the settings file is broken \(missing key 'region'\)\. Reload the tools\./,
    );
    // The host hears it too, as the restarted tool host reports its tools.
    expect(restarts).toEqual([
      [
        expect.objectContaining({
          severity: "error",
          message: expect.stringContaining("the settings file is broken"),
        }),
      ],
    ]);
  });
});
