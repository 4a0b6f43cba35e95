import type { DiagnosticView, ToolView } from "../inspect-protocol.js";
import type { JsonSchema } from "./form-model.js";
import { SchemaView } from "./schema-view.js";

/** The tool list: one button per tool, the selected one marked. */
export function ToolList(props: {
  tools: ToolView[];
  selected: string | undefined;
  onSelect(name: string): void;
}) {
  return (
    <nav class="panel tool-list" aria-labelledby="tools-heading">
      <h2 id="tools-heading">
        Tools <span class="count">{props.tools.length}</span>
      </h2>
      <ul>
        {props.tools.map((tool) => (
          <li key={tool.name}>
            <button
              type="button"
              class="tool-button"
              aria-current={tool.name === props.selected ? "true" : undefined}
              onClick={() => props.onSelect(tool.name)}
            >
              <span class="tool-name">{tool.name}</span>
              {tool.deferrable && <span class="badge">deferrable</span>}
              {tool.hidden && <span class="badge">hidden</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** One tool: label, description, flags, annotations, origin, its parameters and output schema as readable trees. */
export function ToolDetails(props: { tool: ToolView }) {
  const { tool } = props;
  return (
    <section class="panel tool-details" aria-labelledby="tool-heading">
      <h2 id="tool-heading">
        {tool.label} <code class="muted">{tool.name}</code>
      </h2>
      <p class="description">{tool.description}</p>
      <ul class="flags" aria-label="Flags">
        <li class={`badge ${tool.deferrable ? "" : "badge-off"}`}>
          {tool.deferrable ? "deferrable" : "not deferrable"}
        </li>
        <li class={`badge ${tool.hidden ? "" : "badge-off"}`}>{tool.hidden ? "hidden" : "visible"}</li>
        {Object.entries(tool.annotations)
          .filter(([key]) => key !== "title")
          .map(([key, value]) => (
            <li key={key} class="badge badge-annotation">
              {key}: {JSON.stringify(value)}
            </li>
          ))}
      </ul>
      <p class="muted">From {tool.origin}</p>
      <details open>
        <summary>Parameters</summary>
        <SchemaView schema={tool.parameters as JsonSchema} />
      </details>
      {tool.outputSchema !== undefined && (
        <details>
          <summary>Output schema (structuredContent)</summary>
          <SchemaView schema={tool.outputSchema as JsonSchema} empty="No fields." />
        </details>
      )}
    </section>
  );
}

/** Every diagnostic of the latest load, as `tooldock list` prints it (code frame and hint). */
export function DiagnosticsPanel(props: { diagnostics: DiagnosticView[] }) {
  const errors = props.diagnostics.filter((view) => view.diagnostic.severity === "error").length;
  return (
    <section class="panel diagnostics" aria-labelledby="diagnostics-heading" data-testid="diagnostics">
      <h2 id="diagnostics-heading">
        Load diagnostics{" "}
        <span class={`count ${errors > 0 ? "count-error" : ""}`}>{props.diagnostics.length}</span>
      </h2>
      {props.diagnostics.length === 0 ? (
        <p class="muted">Every module loaded cleanly.</p>
      ) : (
        <ul>
          {props.diagnostics.map((view, index) => (
            <li key={index} class={`diagnostic diagnostic-${view.diagnostic.severity}`}>
              <pre>{view.text}</pre>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
