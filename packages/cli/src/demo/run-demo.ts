import { AST_EDIT_TOOL_NAME, createAstEditTool } from "@tooldock/ast-edit";
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";
import type { CliIo } from "../cli-io.js";
import { loadTools } from "../load/load-tools.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatToolTable } from "../output/format-tool-table.js";
import type { Output } from "../output/output.js";
import { DemoConsole } from "./demo-console.js";
import { astEditStep, renameStep, stackStep } from "./demo-steps.js";
import { demoToolsDirectory } from "./demo-tools.js";
import { createDemoWorkspace } from "./demo-workspace.js";

/**
 * The end-to-end tour on the example tools shipped in the CLI package ({@link demoToolsDirectory}), in a temporary workspace (compile cache
 * included) that is removed at the end, whatever happens. Resolves to the exit code.
 */
export async function runDemo(io: CliIo, output: Output): Promise<number> {
  const demo = new DemoConsole(output);
  const workspace = await createDemoWorkspace();
  const host = new ToolHost({ cwd: workspace.cwd });
  const session = new Session({ cwd: workspace.cwd });
  const stacking = new Session({ cwd: workspace.cwd, pendingPolicy: "allow" });
  try {
    demo.step("Load the example tools");
    const examples = demoToolsDirectory();
    session.register(
      createAstEditTool({ cwd: workspace.cwd, stateDirectory: workspace.stateDirectory }),
      "built-in",
    );
    const demoIo = { ...io, cwd: workspace.cwd };
    const { result, report } = await loadTools({
      io: demoIo,
      output,
      paths: [examples],
      command: "demo",
      session,
      host,
      cacheDir: workspace.cacheDir,
    });
    demo.say(`from ${examples}`, "");
    demo.say(...formatToolTable(report.tools, output.colors, examples));
    demo.say(
      output.colors.dim(
        `+ the built-in ${AST_EDIT_TOOL_NAME}; resolve stays hidden until something is pending`,
      ),
    );
    if (report.diagnostics.length > 0)
      demo.say(...formatDiagnostics(report.diagnostics, output.colors, examples));
    demo.watch(session);
    await session.start();

    await renameStep(demo, session, workspace.cwd);
    await astEditStep(demo, session, workspace.cwd);

    // A second session shows a host switching sessions: the same loaded tools, registered
    // again, and the host's active session moved so pushPendingAction reaches the new stack.
    stacking.register(
      createAstEditTool({ cwd: workspace.cwd, stateDirectory: workspace.stateDirectory }),
      "built-in",
    );
    for (const loaded of result.tools) stacking.register(loaded.tool, loaded.path);
    host.setActiveSession(stacking);
    demo.watch(stacking);
    await stacking.start();
    await stackStep(demo, stacking, workspace.cwd);

    const ok = report.diagnostics.length === 0 && demo.failures === 0;
    output.print(
      "",
      ok
        ? output.colors.green(
            "✔ Demo finished. The temporary workspace, compile cache and journals are removed.",
          )
        : output.colors.red(`✖ Demo finished with ${count(demo.failures, "unexpected result")}.`),
    );
    return ok ? 0 : 1;
  } finally {
    host.setActiveSession(undefined);
    await stacking.dispose();
    await session.dispose();
    await workspace.remove();
  }
}
