import type { AgentToolResult } from "@tooldock/sdk";
import { blockPlaceholder } from "../../output/block-placeholder.js";
import type { CallResponse } from "../inspect-protocol.js";

/** Image types the page shows inline; others are described. */
const SHOWN_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * One tool result: its text and images (other blocks described, a text resource with its
 * text), an error mark for `isError`, its `structuredContent`, its details on demand.
 */
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
      {(result.content ?? []).map((block, index) => {
        if (block.type === "text")
          return (
            <pre key={index} class="result-text">
              {block.text}
            </pre>
          );
        if (block.type === "image" && SHOWN_IMAGES.has(block.mimeType))
          return (
            <img
              key={index}
              class="result-image"
              alt={`Result block ${index + 1}, ${block.mimeType}`}
              src={`data:${block.mimeType};base64,${block.data}`}
            />
          );
        if (block.type === "resource" && "text" in block.resource)
          return (
            <details key={index} open>
              <summary>{blockPlaceholder(block)}</summary>
              <pre class="result-text">{block.resource.text}</pre>
            </details>
          );
        return (
          <p key={index} class="muted">
            {blockPlaceholder(block)}
          </p>
        );
      })}
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
