// The ast-edit README's "Usage" example, compiled by the type check so it cannot rot. The
// README shows the region below as it is (`scripts/readme-snippets.test.ts` compares them;
// `pnpm docs:snippets` copies them).
import { Session } from "@tooldock/runtime";
import type { AgentToolResult } from "@tooldock/sdk";
import { describe, expectTypeOf, it } from "vitest";
import { createAstEditTool } from "./index.js";

export async function usage(cwd: string): Promise<AgentToolResult> {
  // #region usage
  const session = new Session({ cwd });
  session.register(createAstEditTool({ cwd }), "built-in");
  await session.start(); // finishes or undoes an apply a crash interrupted (see Crash safety)
  const preview = await session.execute({
    toolCallId: "1",
    name: "ast_edit",
    params: { ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }], path: "src" },
  });
  // preview: a unified diff per file; nothing is written yet.
  // session.toolChoice() is now { type: "tool", name: "resolve" }
  const applied = await session.execute({
    toolCallId: "2",
    name: "resolve",
    params: { action: "apply", reason: "use the logger" },
  });
  await session.dispose();
  // #endregion usage
  return preview.isError ? preview : applied;
}

describe("the ast-edit README's usage", () => {
  it("compiles", () => {
    expectTypeOf(usage).returns.resolves.toEqualTypeOf<AgentToolResult>();
  });
});
