/** Runs `binary …args` to completion: in the repository unless `cwd`, without colour, output piped. */
export function runProcess(
  binary: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }>;
/** `binary …args` with piped stdio, talked to line by line (JSON lines on stdout). */
export function startLineProcess(
  binary: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; onStderr?: (text: string) => void },
): {
  child: import("node:child_process").ChildProcessWithoutNullStreams;
  stderr(): string;
  next(): Promise<unknown>;
  send(line: string): void;
  ended(): Promise<void>;
  kill(): Promise<void>;
};
