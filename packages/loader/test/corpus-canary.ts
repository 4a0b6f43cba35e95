import type { CustomToolAPI } from "@tooldock/sdk";

/** Loaded beside every corpus case: it must load and run whatever the case does. */
export default (pi: CustomToolAPI) => ({
  name: "corpus_canary",
  label: "Corpus canary",
  description: "Still loads and runs beside a broken module.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "alive" }] };
  },
});
