import { runDemo } from "../demo/run-demo.js";
import type { Command } from "./command.js";

/** `tooldock demo`: the main job on the bundled examples, end to end (what `pnpm start` runs). */
export const demoCommand: Command = {
  spec: {
    name: "demo",
    summary: "Run the end-to-end tour on the bundled examples",
    usage: "tooldock demo",
    options: {},
    positionals: { min: 0, max: 0 },
    details: [
      "Loads @tooldock/examples, previews and applies a batch rename (showing the pending stack and the steering to resolve), previews and discards an ast_edit, then stacks two actions and resolves them last-in first-out. Everything happens in a temporary folder (compile cache included) that is removed at the end.",
    ],
  },
  run: ({ io, output }) => runDemo(io, output),
};
