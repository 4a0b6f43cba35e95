// Shows: an async factory. It reads the project's package.json once, at load time, and bakes
// what it found into the tool's description, so the model sees the scripts before calling.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CustomToolAPI } from "@tooldock/sdk";
import { defineTool, defineToolFactory, errorResult, textResult } from "@tooldock/sdk";

/** The parts of package.json the tool reports. */
export interface ProjectInfo {
  name: string | undefined;
  version: string | undefined;
  scripts: Record<string, string>;
}

async function readProjectInfo(cwd: string): Promise<ProjectInfo | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(cwd, "package.json"), "utf8")) as Record<string, unknown>;
    const scripts = (manifest.scripts ?? {}) as Record<string, string>;
    return {
      name: manifest.name as string | undefined,
      version: manifest.version as string | undefined,
      scripts,
    };
  } catch {
    return undefined;
  }
}

export default defineToolFactory(async (pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  const info = await readProjectInfo(pi.cwd);
  const scripts = Object.keys(info?.scripts ?? {});
  return defineTool({
    name: "project_info",
    label: "Project info",
    description: info
      ? `Describe the Node project ${info.name ?? "(unnamed)"}: version and package.json scripts` +
        (scripts.length > 0 ? ` (${scripts.join(", ")}).` : ".")
      : "Describe the Node project in the working directory (its package.json was not found at load time).",
    parameters: Type.Object({}, { additionalProperties: false }),
    async execute(_toolCallId, _params, _onUpdate, ctx) {
      // Read again at call time: the file may have changed since the host loaded the tool.
      const current = await readProjectInfo(ctx.cwd);
      if (!current) return errorResult(`No readable package.json in ${ctx.cwd}. Is this a Node project?`);
      const lines = Object.entries(current.scripts).map(([name, command]) => `  ${name}: ${command}`);
      return textResult(
        `${current.name ?? "(unnamed)"}@${current.version ?? "0.0.0"}\n` +
          (lines.length > 0 ? `Scripts:\n${lines.join("\n")}` : "No scripts."),
        current,
      );
    },
  });
});
