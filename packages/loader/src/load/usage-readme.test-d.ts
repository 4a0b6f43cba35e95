// The loader README's "Usage" example, compiled by the type check so it cannot rot. The README
// shows the region below as it is (`scripts/readme-snippets.test.ts` compares them;
// `pnpm docs:snippets` copies them).
import { Session } from "@tooldock/runtime";
import type { Logger, UIContext } from "@tooldock/sdk";
import { describe, expectTypeOf, it } from "vitest";
import { formatDiagnostic, loadCustomTools, ToolHost } from "../index.js";

export async function usage(myLogger: Logger, myUI: UIContext): Promise<Session> {
  // #region usage
  const host = new ToolHost({ cwd: process.cwd(), logger: myLogger });
  const session = new Session({ cwd: process.cwd() });
  const { tools, diagnostics } = await loadCustomTools({
    paths: ["~/.tooldock/tools", "./tools"],
    host,
    session, // tools are registered into it; it becomes the host's active session
    builtInToolNames: ["read", "write", "bash"],
  });
  for (const d of diagnostics)
    process.stderr.write(`${formatDiagnostic(d, { color: process.stderr.isTTY })}\n`);
  process.stderr.write(`${tools.length} ${tools.length === 1 ? "tool" : "tools"} loaded\n`);
  host.setUIContext(myUI); // tools already loaded see the UI from now on
  // #endregion usage
  return session;
}

describe("the loader README's usage", () => {
  it("compiles", () => {
    expectTypeOf(usage).returns.resolves.toEqualTypeOf<Session>();
  });
});
