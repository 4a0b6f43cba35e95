/** A runtime spec read: the runtime and a version prefix (major, major.minor or exact). */
export function parseRuntimeSpec(spec: string): { runtime: "node" | "bun"; version: string };
export function runtimesCacheDir(env?: NodeJS.ProcessEnv): string;
export function checkPrivateFolder(folder: string): Promise<void>;
export function ensureRuntime(
  spec: string,
  options?: {
    cacheDir?: string;
    refresh?: boolean;
    npm?: string;
    npmCache?: string;
    log?: (line: string) => void;
  },
): Promise<string>;
/** For tests: the runtime's binary, or `skip(reason)` (which ends the test) when it cannot be installed. */
export function testRuntime(spec: string, skip: (reason: string) => void): Promise<string>;
