type Esbuild = typeof import("esbuild");

let esbuildModule: Promise<Esbuild> | undefined;
let users = 0;

/**
 * esbuild, imported on first need (a fully warm start never imports it). Pair every
 * `acquireEsbuild` with a `releaseEsbuild`; the last release stops esbuild's service so the
 * host keeps no child process once a load batch is done (a later build starts it again).
 */
export async function acquireEsbuild(): Promise<Esbuild> {
  esbuildModule ??= import("esbuild");
  try {
    const esbuild = await esbuildModule;
    users += 1;
    return esbuild;
  } catch (error) {
    esbuildModule = undefined;
    throw error;
  }
}

/** Releases one use of esbuild; stops its service when no load batch uses it. */
export async function releaseEsbuild(): Promise<void> {
  users = Math.max(0, users - 1);
  if (users > 0 || esbuildModule === undefined) return;
  const esbuild = await esbuildModule;
  if (users === 0) await esbuild.stop();
}
