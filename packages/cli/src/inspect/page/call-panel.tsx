import type { AgentToolResult } from "@tooldock/sdk";
import { useEffect, useRef, useState } from "preact/hooks";
import { blockPlaceholder } from "../../output/block-placeholder.js";
import type { CallResponse, ToolView } from "../inspect-protocol.js";
import { ApiError, callTool, cancelCall, newCallId, validateArguments } from "./api-client.js";
import { initialValue, type JsonSchema } from "./form-model.js";
import { ResultView } from "./result-view.js";
import { SchemaForm } from "./schema-form.js";

/** How long the arguments must stay unchanged before they are checked with the server. */
const VALIDATE_DELAY_MS = 150;

/**
 * Calls one tool: the form from its schema and the raw JSON of the arguments (either edits
 * the other), the validator's issues next to each field, the streamed partial results while
 * the call runs, a Cancel button, then the result.
 */
export function CallPanel(props: { tool: ToolView; partials: Readonly<Record<string, AgentToolResult[]>> }) {
  const { tool } = props;
  const schema = tool.parameters as JsonSchema;
  const [value, setValue] = useState<unknown>(() => initialValue(schema));
  const [rawText, setRawText] = useState(() => JSON.stringify(initialValue(schema), null, 2));
  const [rawProblem, setRawProblem] = useState<string | undefined>();
  const [issues, setIssues] = useState<ReadonlyMap<string, string[]>>(new Map());
  const [running, setRunning] = useState<string | undefined>();
  const [lastCallId, setLastCallId] = useState<string | undefined>();
  const [response, setResponse] = useState<CallResponse | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const checks = useRef(0);

  useEffect(() => {
    const check = ++checks.current;
    const timer = setTimeout(() => {
      validateArguments(tool.name, value)
        .then((answer) => {
          if (check !== checks.current) return;
          const byPath = new Map<string, string[]>();
          for (const issue of answer.issues)
            byPath.set(issue.path, [...(byPath.get(issue.path) ?? []), issue.message]);
          setIssues(byPath);
        })
        .catch(() => undefined);
    }, VALIDATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [tool.name, value]);

  const fromForm = (next: unknown) => {
    setValue(next);
    setRawText(JSON.stringify(next, null, 2));
    setRawProblem(undefined);
  };
  const fromRaw = (text: string) => {
    setRawText(text);
    try {
      setValue(JSON.parse(text));
      setRawProblem(undefined);
    } catch (error) {
      setRawProblem(`Not valid JSON: ${(error as Error).message}`);
    }
  };

  const run = async () => {
    if (running !== undefined || rawProblem !== undefined) return;
    const callId = newCallId();
    setRunning(callId);
    setLastCallId(callId);
    setResponse(undefined);
    setFailure(undefined);
    try {
      setResponse(await callTool({ callId, tool: tool.name, params: value }));
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : `The call could not be sent: ${String(error)}`);
    } finally {
      setRunning(undefined);
    }
  };

  const partials = lastCallId === undefined ? [] : (props.partials[lastCallId] ?? []);
  const allIssues = [...issues.entries()].flatMap(([path, messages]) =>
    messages.map((message) => `${path === "" ? "/" : path}: ${message}`),
  );
  return (
    <section class="panel call-panel" aria-labelledby="call-heading">
      <h2 id="call-heading">Call {tool.name}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <SchemaForm
          schema={schema}
          value={value}
          onChange={fromForm}
          issues={issues}
          idPrefix={`arg-${tool.name}`}
        />
        <details class="raw-json" open={rawProblem !== undefined}>
          <summary>Arguments as JSON</summary>
          <label for={`raw-${tool.name}`} class="visually-hidden">
            Arguments as JSON
          </label>
          <textarea
            id={`raw-${tool.name}`}
            class="json-input"
            rows={6}
            spellcheck={false}
            value={rawText}
            aria-invalid={rawProblem !== undefined ? "true" : undefined}
            onInput={(event) => fromRaw(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Ctrl+Enter (Cmd+Enter) calls the tool from the JSON box, where Enter is a new line.
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                void run();
              }
            }}
          />
          <p class="field-description">Ctrl+Enter calls the tool.</p>
          {rawProblem !== undefined && <p class="issue">{rawProblem}</p>}
        </details>
        {allIssues.length > 0 && (
          <div class="issue-summary" data-testid="argument-issues">
            {allIssues.length} {allIssues.length === 1 ? "problem" : "problems"} with the arguments (the tool
            will refuse them):
            <ul>
              {allIssues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          </div>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={running !== undefined || rawProblem !== undefined}>
            {running !== undefined ? "Running…" : `Call ${tool.name}`}
          </button>
          {running !== undefined && (
            <button type="button" class="danger" onClick={() => void cancelCall(running)}>
              Cancel
            </button>
          )}
          <button
            type="button"
            class="link"
            onClick={() => fromForm(initialValue(schema))}
            disabled={running !== undefined}
          >
            Reset arguments
          </button>
        </div>
      </form>
      {partials.length > 0 && (
        <section class="partials" aria-live="polite" data-testid="partials">
          <h3>Streamed updates ({partials.length})</h3>
          <ol>
            {partials.map((partial, index) => (
              <li key={index}>
                <pre>
                  {(partial.content ?? [])
                    .map((block) => (block.type === "text" ? block.text : blockPlaceholder(block)))
                    .join("\n")}
                </pre>
              </li>
            ))}
          </ol>
        </section>
      )}
      {failure !== undefined && (
        <p class="issue" role="alert">
          {failure}
        </p>
      )}
      {response !== undefined && (
        <ResultView title={`Result of ${tool.name}`} result={response.result} thrown={response.error} />
      )}
    </section>
  );
}
