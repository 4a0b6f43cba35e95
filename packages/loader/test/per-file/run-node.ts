import { runProcess } from "../../../../scripts/run-process.mjs";

/**
 * Runs `node` with `args` (and `env` added to this process's) to its end; rejects with its
 * stderr when it fails.
 */
export async function runNode(
  node: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string }> {
  const run = await runProcess(node, args, { env });
  if (run.code !== 0) throw new Error(`${node} ${args.join(" ")} exited with ${run.code}:\n${run.stderr}`);
  return run;
}
