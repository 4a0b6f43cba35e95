/** Runs `binary …args` to completion: in the repository unless `cwd`, without colour, output piped. */
export function runProcess(
  binary: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }>;
