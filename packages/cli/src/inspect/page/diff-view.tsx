import { detailDiffs, diffLineKind, isRecord } from "./form-model.js";

/** What an action's details show: each file's diff (ast_edit), renames, else the JSON. */
export function DetailsView(props: { details: unknown }) {
  const diffs = detailDiffs(props.details);
  const renames = renamesOf(props.details);
  if (diffs.length === 0 && renames.length === 0) {
    if (props.details === undefined || props.details === null) return <p class="muted">No details.</p>;
    return <pre class="json">{JSON.stringify(props.details, null, 2)}</pre>;
  }
  return (
    <div class="details-view">
      {renames.length > 0 && (
        <ul class="renames" aria-label="Renames">
          {renames.map((rename) => (
            <li key={rename.from}>
              <code>{rename.from}</code> → <code>{rename.to}</code>
            </li>
          ))}
        </ul>
      )}
      {diffs.map((file, index) => (
        <figure key={file.path ?? index} class="diff-file">
          <figcaption>
            {file.path ?? "diff"}
            {file.replacements !== undefined && (
              <span class="muted">
                {" · "}
                {file.replacements} {file.replacements === 1 ? "replacement" : "replacements"}
              </span>
            )}
          </figcaption>
          <pre class="diff">
            {file.diff
              .replace(/\n$/, "")
              .split("\n")
              .map((line, lineIndex) => (
                <span key={lineIndex} class={`diff-line diff-${diffLineKind(line)}`}>
                  {line}
                  {"\n"}
                </span>
              ))}
          </pre>
        </figure>
      ))}
    </div>
  );
}

/** `details.renames: [{ from, to }]` (the batch rename example), else empty. */
function renamesOf(details: unknown): Array<{ from: string; to: string }> {
  if (!isRecord(details) || !Array.isArray(details.renames)) return [];
  return details.renames.filter(
    (rename): rename is { from: string; to: string } =>
      isRecord(rename) && typeof rename.from === "string" && typeof rename.to === "string",
  );
}
