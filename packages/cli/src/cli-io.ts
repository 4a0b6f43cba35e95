/** A stream the CLI writes to: `process.stdout` or a test double. */
export interface OutputStream {
  write(chunk: string): unknown;
  /** True on an interactive terminal: enables colour (unless `NO_COLOR`) and the progress line. */
  isTTY?: boolean;
  /** Terminal width, when known. */
  columns?: number;
}

/** Everything the CLI touches of its process, so tests can run it in-process. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  /** The directory relative paths are resolved from. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** Aborts a running `call` (wired to SIGINT by the `tooldock` binary). */
  signal?: AbortSignal;
}

/** The real process: its streams, working directory and environment. */
export function processIo(signal?: AbortSignal): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, signal };
}
