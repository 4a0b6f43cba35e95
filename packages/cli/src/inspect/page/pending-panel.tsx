import { useState } from "preact/hooks";
import type { CallResponse, PendingView } from "../inspect-protocol.js";
import { ApiError, resolveTop } from "./api-client.js";
import { DetailsView } from "./diff-view.js";
import { ResultView } from "./result-view.js";
import { StepList } from "./store-history.js";

/**
 * The pending stack, top first, each action with its label, source tool, when it was staged
 * and its details (diffs shown as diffs). Apply and Discard act on the top action with the
 * reason given, exactly as the `resolve` tool does; a failed apply stays on top, marked.
 */
export function PendingPanel(props: { pending: PendingView[]; toolChoice: string }) {
  const { pending } = props;
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ action: string; response: CallResponse } | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  const resolve = async (action: "apply" | "discard") => {
    setBusy(true);
    setFailure(undefined);
    try {
      const response = await resolveTop({ action, reason });
      setAnswer({ action, response });
      if (response.result.isError !== true) setReason("");
    } catch (error) {
      setFailure(
        error instanceof ApiError ? error.message : `The request could not be sent: ${String(error)}`,
      );
    } finally {
      setBusy(false);
    }
  };
  const blank = reason.trim() === "";

  return (
    <section class="panel pending-panel" aria-labelledby="pending-heading" data-testid="pending">
      <h2 id="pending-heading">
        Pending actions <span class="count">{pending.length}</span>
      </h2>
      {pending.length === 0 ? (
        <p class="muted">Nothing is pending. A deferrable tool's preview stages an action here.</p>
      ) : (
        <p class="steering">
          Tool choice is forced to <code>{props.toolChoice}</code>: other tools are refused until the top
          action is applied or discarded.
        </p>
      )}
      <ol class="pending-stack">
        {pending.map((action, index) => (
          <li
            key={action.id}
            class={`pending-action ${index === 0 ? "pending-top" : ""}`}
            data-testid="pending-action"
          >
            <article aria-label={`${index === 0 ? "Top action" : `Action ${index + 1}`}: ${action.label}`}>
              <header>
                <span class="badge">{index === 0 ? "top" : `#${index + 1}`}</span>{" "}
                <strong>{action.label}</strong>
              </header>
              <dl class="meta">
                <dt>source</dt>
                <dd>
                  <code>{action.sourceToolName}</code>
                </dd>
                <dt>staged</dt>
                <dd>
                  <time dateTime={new Date(action.createdAt).toISOString()}>
                    {new Date(action.createdAt).toLocaleTimeString()}
                  </time>
                </dd>
                <dt>id</dt>
                <dd>
                  <code>{action.id}</code>
                </dd>
                {action.handler !== undefined && (
                  <>
                    <dt>durable</dt>
                    <dd data-testid="durable-handler">
                      applied by the handler <code>{action.handler}</code> of its tool, in any process
                    </dd>
                  </>
                )}
                {action.stagedBy !== undefined && (
                  <>
                    <dt>staged by</dt>
                    <dd>
                      pid {action.stagedBy.pid} on {action.stagedBy.host}: only that process can apply it
                    </dd>
                  </>
                )}
              </dl>
              {action.interrupted === true && (
                <p class="apply-failure" role="alert" data-testid="interrupted">
                  Interrupted: its process ended while applying it, so the change may be partly made. It is
                  never applied again: check the files, then discard it.
                </p>
              )}
              {action.applyFailure !== undefined && (
                <p class="apply-failure" role="alert" data-testid="apply-failure">
                  Apply failed: {action.applyFailure.message}. The action is still pending: fix the cause and
                  apply again, or discard it.
                </p>
              )}
              <DetailsView details={action.details} />
              {action.history !== undefined && action.history.length > 0 && (
                <StepList steps={action.history} />
              )}
              {index === 0 && (
                <form
                  class="resolve-form"
                  onSubmit={(event) => {
                    event.preventDefault();
                  }}
                >
                  <label for="resolve-reason">Reason (required)</label>
                  <input
                    id="resolve-reason"
                    type="text"
                    value={reason}
                    placeholder="Why apply or discard it"
                    onInput={(event) => setReason(event.currentTarget.value)}
                  />
                  <div class="actions">
                    <button
                      type="button"
                      class="primary"
                      disabled={busy || blank}
                      onClick={() => void resolve("apply")}
                    >
                      Apply
                    </button>
                    <button
                      type="button"
                      class="danger"
                      disabled={busy || blank}
                      onClick={() => void resolve("discard")}
                    >
                      Discard
                    </button>
                  </div>
                </form>
              )}
            </article>
          </li>
        ))}
      </ol>
      {failure !== undefined && (
        <p class="issue" role="alert">
          {failure}
        </p>
      )}
      {answer !== undefined && (
        <ResultView
          title={`resolve ${answer.action}`}
          result={answer.response.result}
          thrown={answer.response.error}
        />
      )}
    </section>
  );
}
