import type { AgentToolResult } from "@tooldock/sdk";
import type { CallResponse } from "../inspect-protocol.js";

/** Image types the page shows inline; others are described. */
const SHOWN_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** One tool result: its text and image blocks, an error mark for `isError`, its `structuredContent`, its details on demand. */
export function ResultView(props: {
  title: string;
  result: AgentToolResult;
  thrown?: CallResponse["error"];
}) {
  const { result, thrown } = props;
  const failed = result.isError === true;
  return (
    <section
      class={`result ${failed ? "result-error" : "result-ok"}`}
      aria-label={props.title}
      data-testid="result"
    >
      <h3>
        {props.title}{" "}
        <span class={`badge ${failed ? "badge-error" : "badge-ok"}`}>{failed ? "isError" : "ok"}</span>
      </h3>
      {(result.content ?? []).map((block, index) =>
        block.type === "text" ? (
          <pre key={index} class="result-text">
            {block.text}
          </pre>
        ) : SHOWN_IMAGES.has(block.mimeType) ? (
          <img
            key={index}
            class="result-image"
            alt={`Result block ${index + 1}, ${block.mimeType}`}
            src={`data:${block.mimeType};base64,${block.data}`}
          />
        ) : (
          <p key={index} class="muted">
            [{block.mimeType} image, not shown]
          </p>
        ),
      )}
      {(result.content ?? []).length === 0 && result.structuredContent === undefined && (
        <p class="muted">(no content)</p>
      )}
      {result.structuredContent !== undefined && (
        <details open data-testid="structured-content">
          <summary>structuredContent</summary>
          <pre class="json">{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </details>
      )}
      {thrown !== undefined && (
        <p class="thrown">
          Thrown: {thrown.message}
          {thrown.location !== undefined &&
            ` at ${thrown.location.file}:${thrown.location.line}:${thrown.location.column}`}
        </p>
      )}
      {result.details !== undefined && (
        <details>
          <summary>details</summary>
          <pre class="json">{JSON.stringify(result.details, null, 2)}</pre>
        </details>
      )}
    </section>
  );
}
