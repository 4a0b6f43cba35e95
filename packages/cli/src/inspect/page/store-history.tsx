import type { StoreView, TransitionView } from "../inspect-protocol.js";

const KIND_TEXT: Record<TransitionView["kind"], string> = {
  staged: "staged",
  applied: "applied",
  "apply-failed": "apply failed",
  discarded: "discarded",
  lost: "lost",
  interrupted: "interrupted",
};

/** An action's steps in the durable store, oldest first: when, what, why, by which process. */
export function StepList(props: { steps: TransitionView[] }) {
  return (
    <ol class="steps" data-testid="action-history">
      {props.steps.map((step, index) => (
        <li key={index} class={`step step-${step.kind}`}>
          <time dateTime={new Date(step.at).toISOString()}>{new Date(step.at).toLocaleTimeString()}</time>{" "}
          <strong>{KIND_TEXT[step.kind]}</strong>
          {step.reason !== undefined && <span>: {step.reason}</span>}
          {step.error !== undefined && <span class="step-error"> ({step.error})</span>}{" "}
          <span class="muted">
            pid {step.process.pid} on {step.process.host}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The durable store the session lives in, and the actions no longer pending, newest first. */
export function StorePanel(props: { store: StoreView }) {
  const { store } = props;
  return (
    <section class="panel store-panel" aria-labelledby="store-heading" data-testid="store">
      <h2 id="store-heading">
        Durable store <span class="count">{store.settled.length}</span>
      </h2>
      <p class="muted">
        Session <code>{store.sessionId}</code> of <code>{store.url}</code>: its actions outlive this server.
      </p>
      {store.settled.length === 0 ? (
        <p class="muted">No action of this session has been applied, discarded or lost yet.</p>
      ) : (
        <ol class="settled">
          {store.settled.map((action) => (
            <li key={action.actionId} data-testid="settled-action">
              <strong>{action.label}</strong>
              <StepList steps={action.steps} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
