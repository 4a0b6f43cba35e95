// Shows: a deferrable tool with a durable action. The call only previews; the renames happen
// when the model calls `resolve` with `apply`. The action is data (the plan) and the name of a
// handler the tool declares in `actions`, so a session opened from a durable store applies it
// after a restart or in another process. `apply` re-checks the disk and throws on any
// conflict, which keeps the action pending (docs/contract.md §3: nothing is lost); `reject`
// reports that nothing changed.
import { randomUUID } from "node:crypto";
import { access, realpath, rename } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { AgentToolResult, CustomToolAPI, PendingActionHandlers } from "@tooldock/sdk";
import { defineTool, defineToolFactory, durableAction, errorResult, textResult } from "@tooldock/sdk";

/** One planned rename; paths are relative to the session's working directory. */
export interface PlannedRename {
  from: string;
  to: string;
}

interface RenameParams {
  files: string[];
  find: string;
  replace: string;
  regex: boolean;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Works out the new name of each file (only the file name changes, never the folder). */
function planRenames(params: RenameParams, cwd: string): { renames: PlannedRename[]; unchanged: string[] } {
  const pattern = params.regex ? new RegExp(params.find, "g") : undefined;
  const renames: PlannedRename[] = [];
  const unchanged: string[] = [];
  for (const file of new Set(params.files)) {
    const name = basename(file);
    const next = pattern
      ? name.replace(pattern, params.replace)
      : name.split(params.find).join(params.replace);
    const from = relative(cwd, resolve(cwd, file));
    if (next === name) unchanged.push(from);
    else renames.push({ from, to: join(dirname(from), next) });
  }
  return { renames, unchanged };
}

const outsideOf = (folder: string, path: string) => {
  const inside = relative(folder, path);
  return isAbsolute(inside) || inside === ".." || inside.startsWith(`..${sep}`);
};

/** Every reason the plan cannot be carried out now; empty when it can. */
async function findConflicts(renames: PlannedRename[], cwd: string): Promise<string[]> {
  const problems: string[] = [];
  const sources = new Set(renames.map((r) => resolve(cwd, r.from)));
  const targets = new Map<string, string>();
  const realCwd = await realpath(cwd).catch(() => resolve(cwd));
  for (const { from, to } of renames) {
    const target = resolve(cwd, to);
    if (!(await exists(resolve(cwd, from)))) problems.push(`${from} does not exist`);
    // The folder as the file system resolves it: a symbolic link on the way may lead out.
    const folder = await realpath(dirname(resolve(cwd, from))).catch(() => dirname(resolve(cwd, from)));
    if (outsideOf(cwd, resolve(cwd, from)) || outsideOf(realCwd, folder))
      problems.push(`${from} is outside the working directory`);
    if (dirname(to) !== dirname(from) || basename(to) === "..") {
      problems.push(`${from} would leave its folder (new name "${to}"); names may not contain "/"`);
    }
    const other = targets.get(target);
    if (other) problems.push(`${from} and ${other} would both become ${to}`);
    targets.set(target, from);
    if (!sources.has(target) && (await exists(target))) problems.push(`${to} already exists`);
  }
  return problems;
}

/** Renames in two phases (via temporary names) so swaps and chains work; undoes on failure. */
async function applyRenames(renames: PlannedRename[], cwd: string): Promise<void> {
  const tag = `.tooldock-rename-${randomUUID().slice(0, 8)}`;
  const staged = renames.map((r, index) => ({
    from: resolve(cwd, r.from),
    temp: join(dirname(resolve(cwd, r.from)), `${tag}-${index}`),
    to: resolve(cwd, r.to),
  }));
  const done: Array<[string, string]> = [];
  try {
    for (const step of staged) {
      await rename(step.from, step.temp);
      done.push([step.temp, step.from]);
    }
    for (const step of staged) {
      await rename(step.temp, step.to);
      done.push([step.to, step.temp]);
    }
  } catch (error) {
    for (const [now, before] of done.reverse()) await rename(now, before).catch(() => undefined);
    throw error;
  }
}

const describePlan = (renames: PlannedRename[]) => renames.map((r) => `  ${r.from} → ${r.to}`).join("\n");

const fileCount = (renames: PlannedRename[]) =>
  `${renames.length} ${renames.length === 1 ? "file" : "files"}`;

/** The handler of the staged renames: any process that loaded this tool can run it. */
const actions = {
  rename: {
    async apply(renames: PlannedRename[], _reason, ctx) {
      // The disk may have changed since the preview: check again, and throw so the action
      // stays pending when the plan no longer fits.
      const problems = await findConflicts(renames, ctx.cwd);
      if (problems.length > 0) throw new Error(`the files changed since the preview: ${problems.join("; ")}`);
      await applyRenames(renames, ctx.cwd);
      return textResult(`Renamed ${fileCount(renames)}:\n${describePlan(renames)}`, { renamed: renames });
    },
    async reject(renames: PlannedRename[], reason, ctx) {
      return textResult(`Discarded: ${ctx.label}. No file was renamed. Reason: ${reason}`, {
        discarded: renames,
      });
    },
  },
} satisfies PendingActionHandlers;

export default defineToolFactory((pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  return defineTool({
    name: "batch_rename_preview",
    label: "Batch rename (preview)",
    description:
      "Preview renaming several files by replacing text in their file names. Nothing is renamed by this " +
      "call: it stages a pending action that you then apply or discard with the `resolve` tool.",
    deferrable: true,
    actions,
    parameters: Type.Object(
      {
        files: Type.Array(Type.String({ description: "A file path, relative to the working directory" }), {
          description: "The files to rename; only their file names change, never their folders",
          minItems: 1,
        }),
        find: Type.String({ description: "The text (or regular expression) to look for in each file name" }),
        replace: Type.String({
          description: "The replacement; with `regex`, `$1` and the like refer to groups",
        }),
        regex: Type.Boolean({
          description: "Treat `find` as a regular expression (true) or as plain text (false)",
        }),
      },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params, _onUpdate, ctx): Promise<AgentToolResult> {
      const cwd = ctx.cwd;
      if (params.find === "")
        return errorResult("`find` is empty; give the text to replace in the file names.");
      if (params.regex) {
        try {
          new RegExp(params.find, "g");
        } catch (error) {
          return errorResult(`\`find\` is not a valid regular expression: ${(error as Error).message}`);
        }
      }
      const { renames, unchanged } = planRenames(params, cwd);
      if (renames.length === 0) {
        return textResult(
          `Nothing to rename: no file name among ${params.files.length} contains "${params.find}".`,
          {
            renames,
            unchanged,
          },
        );
      }
      const conflicts = await findConflicts(renames, cwd);
      if (conflicts.length > 0) {
        return errorResult(
          `Cannot rename:\n${conflicts.map((c) => `  - ${c}`).join("\n")}\nFix the file list or the pattern and try again.`,
          { renames, conflicts },
        );
      }
      const label = `Rename ${fileCount(renames)}: "${params.find}" → "${params.replace}"`;
      ctx.pushPendingAction(
        durableAction(actions, "rename", { label, details: { renames }, payload: renames }),
      );
      const skipped =
        unchanged.length === 0
          ? ""
          : unchanged.length === 1
            ? "\n1 file keeps its name."
            : `\n${unchanged.length} files keep their names.`;
      return textResult(
        `Preview: ${label}\n${describePlan(renames)}${skipped}\n` +
          `Nothing has changed yet. Call \`resolve\` with action "apply" to rename or "discard" to cancel.`,
        { renames, unchanged },
      );
    },
  });
});
