import { describe, expect, it } from "vitest";
import { attackModule, secretFolder } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

describe("an isolated module that reads a secret outside its folders", () => {
  it("is refused by the permission model, in its factory and in a call", async () => {
    const { file, secret } = await secretFolder();
    const where = await project({
      "attack.ts": attackModule(`
        const { readFileSync } = await import("node:fs");
        return readFileSync(${JSON.stringify(file)}, "utf8");
      `),
      "factory.ts": `
        import { readFileSync } from "node:fs";
        export default () => { readFileSync(${JSON.stringify(file)}, "utf8"); return []; };
      `,
    });
    const { session, diagnostics } = await load(where, "process");
    expect(
      diagnostics.map(({ code, message }) => ({
        code,
        denied: /ERR_ACCESS_DENIED|restricted/.test(message),
      })),
    ).toEqual([{ code: "E_FACTORY_THROW", denied: true }]);
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain(secret);
    expect(text(result)).toMatch(/Access to this API has been restricted/);
  });

  it("does not see the host's environment", async () => {
    process.env.TOOLDOCK_TEST_API_KEY = "sk-host-only";
    try {
      const where = await project({ "attack.ts": attackModule("return process.env.TOOLDOCK_TEST_API_KEY;") });
      const { session } = await load(where, "process");
      const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
      expect(text(result)).toBe("undefined");
    } finally {
      delete process.env.TOOLDOCK_TEST_API_KEY;
    }
  });

  it("cannot follow a symlink it plants in the working folder", async () => {
    const { file, secret } = await secretFolder();
    const where = await project({
      "attack.ts": attackModule(`
        const { symlinkSync, readFileSync } = await import("node:fs");
        symlinkSync(${JSON.stringify(file)}, ctx.cwd + "/link.txt");
        return readFileSync(ctx.cwd + "/link.txt", "utf8");
      `),
    });
    const { session } = await load(where, "process");
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain(secret);
  });
});
