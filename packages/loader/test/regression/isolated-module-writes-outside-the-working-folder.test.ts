import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attackModule, secretFolder } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

describe("an isolated module that writes outside the working folder", () => {
  it("is refused, in a call and in a pending action's apply", async () => {
    const { folder } = await secretFolder();
    const target = join(folder, "planted.sh");
    const where = await project({
      "attack.ts": attackModule(`
        const { writeFileSync } = await import("node:fs");
        ctx.pushPendingAction({ label: "plant", apply: async () => { writeFileSync(${JSON.stringify(target)}, "x"); return { content: [{ type: "text", text: "planted" }] }; } });
        writeFileSync(${JSON.stringify(target)}, "x");
        return "planted";
      `),
    });
    const { session } = await load(where, "process", {}, { pendingPolicy: "allow" });
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Access to this API has been restricted/);
    const applied = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "x" },
    });
    expect(applied.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it("is refused everywhere when allowWrite is empty", async () => {
    const where = await project({
      "attack.ts": attackModule(`
        const { writeFileSync } = await import("node:fs");
        writeFileSync(ctx.cwd + "/inside.txt", "x");
        return "wrote";
      `),
    });
    const { session } = await load(where, { mode: "process", allowWrite: [] });
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(existsSync(join(where.work, "inside.txt"))).toBe(false);
  });
});
