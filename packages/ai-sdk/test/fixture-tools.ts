import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";

/** A temporary folder for one test; `remove()` deletes it. */
export async function tempFolder() {
  const path = await mkdtemp(join(tmpdir(), "tooldock-ai-sdk-"));
  return {
    path,
    files: async () => (await readdir(path)).sort(),
    remove: () => rm(path, { recursive: true, force: true }),
  };
}

/**
 * A deferrable tool: previews writing one text file under `root` and stages a pending action
 * labelled `Write <path>` that writes it on apply.
 */
export function writeFilePreviewTool(root: string): CustomTool {
  return defineTool({
    name: "write_file_preview",
    label: "Write a file (preview)",
    description: "Previews writing a text file; nothing is written until `resolve` applies it.",
    deferrable: true,
    parameters: Type.Object(
      { path: Type.String({ description: "A file name in the working folder" }), text: Type.String() },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params, _onUpdate, ctx) {
      const label = `Write ${params.path}`;
      ctx.pushPendingAction({
        label,
        async apply() {
          await writeFile(join(root, params.path), params.text);
          return textResult(`Wrote ${params.path}`);
        },
        async reject(reason) {
          return textResult(`Discarded: ${label}. Nothing was written. Reason: ${reason}`);
        },
      });
      return textResult(`Preview: ${params.path} would contain ${JSON.stringify(params.text)}.`);
    },
  }) as CustomTool;
}

/** A tool that always throws. */
export const boomTool = defineTool({
  name: "boom",
  label: "Boom",
  description: "Always fails.",
  parameters: Type.Object({}),
  async execute() {
    throw new Error("the fuse was lit");
  },
}) as CustomTool;

/** A tool that returns a caption and a 1×1 PNG. */
export const snapshotTool = defineTool({
  name: "snapshot",
  label: "Snapshot",
  description: "Returns a picture.",
  parameters: Type.Object({}),
  async execute() {
    return {
      content: [
        { type: "text", text: "a red dot" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    };
  },
}) as CustomTool;

/** A 1×1 PNG, base64. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
