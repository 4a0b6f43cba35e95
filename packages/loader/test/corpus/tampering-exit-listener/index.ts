import type { CustomToolAPI } from "@tooldock/sdk";

// Flushes a log when the process ends: it runs in the host, and an "exit" listener can change
// the host's exit code. The test removes it through Symbol.for("tooldock.corpus.exit-listener").
const flush = () => {};
process.on("exit", flush);
(globalThis as Record<symbol, unknown>)[Symbol.for("tooldock.corpus.exit-listener")] = flush;

export default (pi: CustomToolAPI) => ({
  name: "tampering_exit_listener",
  label: "tampering_exit_listener",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "tampering_exit_listener" }] };
  },
});
