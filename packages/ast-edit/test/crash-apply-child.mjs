// Child process of crash-apply.test.ts. Run with plain node against the BUILT @tooldock/ast-edit:
//   node crash-apply-child.mjs <cwd> <mode>
// It previews an ast_edit over <cwd>, then applies it through `resolve`. Its seam wraps the
// real node:fs/promises functions (the real atomic-write code runs) only to report each
// mutating call to the parent over IPC before it happens:
// - mode "step": waits for the parent's "go" before each call, so the parent can SIGKILL it
//   exactly between two file system calls;
// - mode "timer": does not wait; the parent kills after a random delay, which also lands in
//   the middle of a call (a half-written temporary file, say).
import { open, rename, rm } from "node:fs/promises";
import { Session } from "@tooldock/runtime";
import { createAstEditTool } from "../dist/index.js";

const [cwd, mode] = process.argv.slice(2);
let armed = false;
let sequence = 0;
let release;
process.on("message", (message) => {
  if (message === "go") release?.();
});

function report(op, args) {
  if (!armed) return undefined;
  process.send({ type: "fs", op, index: sequence++, paths: args.filter((arg) => typeof arg === "string") });
  if (mode !== "step") return undefined;
  return new Promise((resolve) => {
    release = resolve;
  });
}

const watched =
  (op, call) =>
  async (...args) => {
    await report(op, args.map(String));
    return call(...args);
  };

const session = new Session({ cwd });
session.register(
  createAstEditTool({
    cwd,
    fileSystem: { open: watched("open", open), rename: watched("rename", rename), rm: watched("rm", rm) },
  }),
  "built-in",
);
await session.start();
const preview = await session.execute({
  toolCallId: "preview",
  name: "ast_edit",
  params: { ops: [{ pat: "oldName($$$ARGS)", out: "newName($$$ARGS)" }] },
});
if (preview.isError) throw new Error(preview.content[0]?.text);
process.send({ type: "applying" });
armed = true;
const applied = await session.execute({
  toolCallId: "apply",
  name: "resolve",
  params: { action: "apply", reason: "crash test" },
});
armed = false;
process.send({ type: "applied", isError: applied.isError === true }, () => process.exit(0));
