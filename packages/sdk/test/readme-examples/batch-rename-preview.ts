// The SDK README's pending-action example, shown as it is below this comment (a snippet: see
// scripts/readme-snippets.mjs). Type-checked by tsc; packages/cli/test/sdk-readme-examples.e2e.test.ts
// runs `tooldock validate --strict` on this folder.
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { defineTool, defineToolFactory, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi) => {
  const { Type } = pi.typebox;
  const Rename = Type.Object(
    {
      from: Type.String({ description: "Current file name" }),
      to: Type.String({ description: "New file name" }),
    },
    { additionalProperties: false },
  );
  return defineTool({
    name: "batch_rename_preview",
    label: "Batch rename",
    description: "Preview renaming files; the change happens only when resolved with apply.",
    deferrable: true,
    parameters: Type.Object(
      {
        dir: Type.String({ description: "Folder holding the files" }),
        renames: Type.Array(Rename, { description: "The renames, in order" }),
      },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params) {
      const preview = params.renames.map((r) => `${r.from} -> ${r.to}`).join("\n");
      const n = params.renames.length;
      const files = `${n} ${n === 1 ? "file" : "files"}`;
      pi.pushPendingAction({
        label: `Rename ${files}`,
        details: { renames: params.renames },
        async apply() {
          for (const r of params.renames) await rename(join(params.dir, r.from), join(params.dir, r.to));
          return textResult(`Renamed ${files}`);
        },
        async reject(reason) {
          return textResult(`Left ${files} as they were: ${reason}`);
        },
      });
      return textResult(`Preview (nothing renamed yet):\n${preview}`);
    },
  });
});
