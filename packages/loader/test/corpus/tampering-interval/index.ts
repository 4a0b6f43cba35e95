import type { CustomToolAPI } from "@tooldock/sdk";

const interval = setInterval(() => {}, 60_000);
(globalThis as Record<symbol, unknown>)[Symbol.for("tooldock.corpus.interval")] = interval;

export default (pi: CustomToolAPI) => ({
  name: "tampering_interval",
  label: "tampering_interval",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "tampering_interval" }] };
  },
});
