import { runProcess } from "../../../../scripts/run-process.mjs";

/** Runs `node` with `args` to its end; rejects with its stderr when it fails. */
export async function runNode(node: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const run = await runProcess(node, args);
  if (run.code !== 0) throw new Error(`${node} ${args.join(" ")} exited with ${run.code}:\n${run.stderr}`);
  return run;
}
