import type * as fs from "node:fs/promises";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Session } from "@tooldock/runtime";
import type { AgentToolResult, CustomToolPendingAction } from "@tooldock/sdk";
import { type AstEditToolOptions, createAstEditTool } from "../../src/ast-edit-tool.js";
import type { AstEditParameters } from "../../src/parameters.js";

/** A temporary folder with a working directory `project/` in it; `remove()` deletes it all. */
export interface AstEditWorkspace {
  /** The temporary folder (real path); `cwd` and any "outside" folder live in it. */
  root: string;
  cwd: string;
  write(relativePath: string, content: string | Uint8Array, base?: string): Promise<string>;
  remove(): Promise<void>;
}

export async function astEditWorkspace(prefix: string): Promise<AstEditWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), `tooldock-${prefix}-`)));
  const cwd = join(root, "project");
  await mkdir(cwd);
  return {
    root,
    cwd,
    async write(relativePath, content, base = cwd) {
      const path = join(base, relativePath);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      return path;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A started Session with `ast_edit`, its state in the workspace, opening files through `open`:
 * a test's `fs.open` that acts between an apply's steps (another process, another user).
 */
export async function astEditSession(workspace: AstEditWorkspace, open: typeof fs.open): Promise<Session> {
  const session = new Session({ cwd: workspace.cwd });
  session.register(
    createAstEditTool({
      cwd: workspace.cwd,
      stateDirectory: join(workspace.root, "state"),
      fileSystem: { open },
    }),
    "built-in",
  );
  await session.start();
  return session;
}

/** Previews `foo($A)` → `bar($A)` in `session`, then applies it through `resolve`: the apply's result. */
export async function previewThenApply(session: Session): Promise<AgentToolResult<unknown>> {
  await session.execute({
    toolCallId: "preview",
    name: "ast_edit",
    params: { ops: [{ pat: "foo($A)", out: "bar($A)" }] },
  });
  return session.execute({ toolCallId: "apply", name: "resolve", params: { action: "apply", reason: "go" } });
}

/** Runs one `ast_edit` call outside a Session, collecting what it stages. */
export async function previewAstEdit(
  cwd: string,
  params: AstEditParameters,
  options: Partial<AstEditToolOptions> = {},
  signal?: AbortSignal,
): Promise<{ result: AgentToolResult<unknown>; actions: CustomToolPendingAction[] }> {
  const actions: CustomToolPendingAction[] = [];
  const tool = createAstEditTool({
    cwd,
    pushPendingAction: (action) => actions.push(action),
    ...options,
  });
  const ctx = {
    sessionId: "regression",
    cwd,
    hasPendingActions: () => actions.length > 0,
    abort() {},
    pushPendingAction() {},
  };
  const result = await tool.execute("call-1", params, undefined, ctx, signal);
  return { result, actions };
}

/** The text blocks of a result, joined. */
export const textOf = (result: AgentToolResult<unknown>): string =>
  result.content.map((block) => ("text" in block ? block.text : "")).join("\n");
