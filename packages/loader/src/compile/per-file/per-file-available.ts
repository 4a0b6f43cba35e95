import * as nodeModule from "node:module";

/** Node's in-thread module hooks (22.15+, 23.5+); absent on Node 20 and Bun. */
export type RegisterHooks = (hooks: {
  resolve: (
    specifier: string,
    context: { parentURL?: string | undefined },
    next: (specifier: string, context?: object) => { url: string },
  ) => { url: string; format?: string; shortCircuit?: boolean };
  load: (
    url: string,
    context: object,
    next: (url: string, context?: object) => object,
  ) => { format: string; source: string; shortCircuit: true } | object;
}) => unknown;

export const registerHooks = (nodeModule as { registerHooks?: RegisterHooks }).registerHooks;

/** Whether a cache miss can be loaded file by file: Node's `module.registerHooks` (not Bun's hooks). */
export function perFileAvailable(): boolean {
  return typeof registerHooks === "function" && process.versions.bun === undefined;
}
