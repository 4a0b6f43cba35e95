// Tool modules the isolation tests load: what a hostile tool would try, and one that says
// where it runs. Module text, written into each test's project.

/** Reads any file it is given: what a hostile tool would do with a path it guessed. */
export const READ_FILE = `import { readFileSync } from "node:fs";
export default (pi) => ({
  name: "read_file",
  label: "Read file",
  description: "Returns a file's text.",
  parameters: pi.typebox.Type.Object({ path: pi.typebox.Type.String() }),
  execute: async (_id, params) => ({ content: [{ type: "text", text: readFileSync(params.path, "utf8") }] }),
});
`;

/**
 * Says where it runs: its description (read when the factory runs) and its result name the
 * permission model's answer and the process id; its pending action writes a file in the
 * working folder when applied.
 */
export const WHERE = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
// Under Node's permission model a tool host without --allow-exec may not start processes.
const sandboxed = () => process.permission?.has("child") === false;
export default (pi) => ({
  name: "where_am_i",
  label: "Where am I",
  description: "sandboxed: " + sandboxed(),
  parameters: pi.typebox.Type.Object({}),
  execute: async (_id, _params, _onUpdate, ctx) => {
    ctx.pushPendingAction({
      label: "Write applied.txt",
      apply: async () => {
        writeFileSync(join(ctx.cwd, "applied.txt"), String(process.pid));
        return { content: [{ type: "text", text: "written" }] };
      },
    });
    return { content: [{ type: "text", text: JSON.stringify({ sandboxed: sandboxed(), pid: process.pid }) }] };
  },
});
`;
