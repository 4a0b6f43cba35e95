import { describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

const SPAWN = attackModule(`
  const { execFileSync } = await import("node:child_process");
  return execFileSync("echo", ["ran"], { encoding: "utf8" }).trim();
`);
const EXEC = attackModule(`
  const result = await pi.exec("echo", ["ran"]);
  return result.code + ":" + result.stdout.trim() + result.stderr;
`).replace("export default (pi) =>", "export default (pi) =>");

describe("an isolated module that starts a process", () => {
  it("is refused unless exec is allowed", async () => {
    const where = await project({ "spawn.ts": SPAWN });
    const { session } = await load(where, "process");
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Access to this API has been restricted/);
  });

  it("gets code 127 from pi.exec unless exec is allowed", async () => {
    const where = await project({ "exec.ts": EXEC });
    const { session } = await load(where, "process");
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(text(result)).toMatch(/^127:/);
  });

  it("runs it when allowExec is on", async () => {
    const where = await project({ "spawn.ts": SPAWN });
    const { session } = await load(where, { mode: "process", allowExec: true });
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(text(result)).toBe("ran");
  });
});
