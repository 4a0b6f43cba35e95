/** Sources of small tool modules, written into scratch folders by the reload and watch tests. */

/** A tool `name` that answers `text` and takes no arguments. */
export function echoToolSource(name: string, text: string): string {
  return `export default (pi: any) => ({
  name: ${JSON.stringify(name)},
  label: "Echo",
  description: "Answers a fixed text.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: ${JSON.stringify(text)} }] };
  },
});
`;
}

/**
 * A tool `name` that stages `<version>: <label>` through `pi.pushPendingAction` and answers
 * `<version> staged <label>`; applying answers `<version> applied <label>`.
 */
export function stagingToolSource(name: string, version: string): string {
  const v = JSON.stringify(version);
  return `export default (pi: any) => ({
  name: ${JSON.stringify(name)},
  label: "Stage",
  description: "Stages a change to apply later.",
  parameters: pi.typebox.Type.Object({ label: pi.typebox.Type.String() }),
  deferrable: true,
  async execute(_id: string, params: { label: string }) {
    pi.pushPendingAction({
      label: ${v} + ": " + params.label,
      apply: async () => ({ content: [{ type: "text" as const, text: ${v} + " applied " + params.label }] }),
    });
    return { content: [{ type: "text" as const, text: ${v} + " staged " + params.label }] };
  },
});
`;
}
