import { expect, it, vi } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

vi.mock("esbuild", () => {
  throw new Error("esbuild binary missing for this platform");
});

/**
 * The host builds the packs its tool host evaluates. When it could not (esbuild missing for
 * the platform), it said nothing: the tool host compiled every module with jiti, slower, with
 * no code caches, and the load reported no diagnostic, where an in-process load reports
 * `W_COMPILER_FALLBACK` for the same cause.
 */
it("an isolated load whose tool host's packs could not be built says so", async () => {
  const where = await project({
    "hello.ts": `
      import { Type } from "@sinclair/typebox";
      export default () => ({
        name: "hello",
        label: "Hello",
        description: "Greets",
        parameters: Type.Object({}),
        async execute() { return { content: [{ type: "text", text: "hello" }] }; },
      });
    `,
  });
  const { session, diagnostics } = await load(where, "process");
  // The tools still load: the tool host compiled them itself.
  expect(text(await session.execute({ toolCallId: "1", name: "hello", params: {} }))).toBe("hello");
  expect(diagnostics).toEqual([
    {
      code: "W_COMPILER_FALLBACK",
      severity: "warning",
      // vitest wraps the mock's error in its own.
      message: expect.stringMatching(
        /^The packs of the tool host could not be built \(.+\); the tool host compiled/,
      ),
      path: where.tools,
      hint: 'Reinstall esbuild for this platform, or pass compiler: "jiti" to silence this warning.',
    },
  ]);
});
