import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Type } from "@sinclair/typebox";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import type { SessionToolContext } from "../src/session/tool-context.js";

/**
 * A deferrable tool for end-to-end tests: previews writing files under `root` and stages a
 * pending action that writes them for real on apply. With `createDirectories: false`,
 * apply fails when a parent folder is missing (to exercise a failed apply).
 */
export function writeFilesTool(
  root: string,
  options: { name?: string; createDirectories?: boolean } = {},
): CustomTool {
  const name = options.name ?? "write_files";
  return defineTool({
    name,
    label: "Write files",
    description: "Writes text files (previewed first; nothing is written until resolve applies it)",
    deferrable: true,
    parameters: Type.Object({
      files: Type.Array(Type.Object({ path: Type.String(), text: Type.String() }), { minItems: 1 }),
    }),
    async execute(_toolCallId, params, _onUpdate, ctx) {
      const files = params.files.map((file) => ({ ...file, absolute: join(root, file.path) }));
      const label = `Write ${files.length} file(s)`;
      (ctx as SessionToolContext).pushPendingAction({
        label,
        details: { paths: files.map((file) => file.path) },
        async apply() {
          for (const file of files) {
            if (options.createDirectories !== false) await mkdir(dirname(file.absolute), { recursive: true });
            await writeFile(file.absolute, file.text);
          }
          return textResult(`Wrote ${files.map((file) => file.path).join(", ")}`, { written: files.length });
        },
      });
      const preview = await Promise.all(
        files.map(
          async (file) => `${file.path}: ${(await readIfExists(file.absolute)) ?? "(new)"} -> ${file.text}`,
        ),
      );
      return textResult(`Preview (nothing written yet):\n${preview.join("\n")}`);
    },
  }) as CustomTool;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}
