import { runDemo } from "../demo/run-demo.js";
import type { CommandContext } from "./command.js";

/** Runs `tooldock demo` (spec: `demoSpec`): the main job on the bundled examples, end to end. */
export function run({ io, output }: CommandContext): Promise<number> {
  return runDemo(io, output);
}
