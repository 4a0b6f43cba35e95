import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { hasToolManifest } from "@tooldock/loader";
import { UsageError } from "../args/usage-error.js";
import { shellWords } from "../output/shell-words.js";

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Where to load tools from when the command line names no path: `.tooldock/tools` under `cwd`
 * when it is a folder, and `cwd` itself when its package.json declares tools or, with
 * `opencode` (`--opencode`), when it holds `.opencode/tool` or `.opencode/tools`. None is bad
 * usage: the error says what was looked for, and, when the tool name the command was given
 * (`toolName`, `call`'s first argument) is a path that exists, that it was taken as the name.
 */
export async function defaultToolPaths(
  cwd: string,
  command: string,
  opencode = false,
  toolName?: string,
): Promise<string[]> {
  const paths: string[] = [];
  if (await isDirectory(join(cwd, ".tooldock", "tools"))) paths.push(".tooldock/tools");
  if (
    (await hasToolManifest(cwd)) ||
    (opencode &&
      ((await isDirectory(join(cwd, ".opencode", "tool"))) ||
        (await isDirectory(join(cwd, ".opencode", "tools")))))
  )
    paths.push(".");
  if (paths.length === 0) {
    const tookPath =
      toolName !== undefined && toolName !== "" && (await exists(resolve(cwd, toolName)))
        ? `; "${toolName}" was taken as the tool name, though it is a path: name the tool first, then the path (tooldock ${command} <tool> ${shellWords(toolName)})`
        : "";
    throw new UsageError(
      `no tool paths given, and ${cwd} has neither .tooldock/tools nor a package.json with a "tooldock" field${opencode ? " nor .opencode/tool(s)" : ""}${tookPath}`,
      command,
    );
  }
  return paths;
}
