// Found while reading the event bus fix: `session.subscribe` and `pending.subscribe` kept their
// listeners in a Set, so the function a subscribe returned removed the listener itself, not
// that subscription. Called again late (a cleanup in a `finally` after an early unsubscribe),
// it removed a later subscription of the same listener, which then missed every event without
// a word; and subscribing a listener twice gave one subscription that either remover ended.
// Each subscribe is now a subscription of its own, as on pi's event bus and Node's EventEmitter.
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { PendingActionStore } from "../../src/pending/pending-action-store.js";
import { Session } from "../../src/session/session.js";

describe("stale-unsubscribe-removes-a-later-listener", () => {
  it("a remover called again after the listener subscribed anew leaves the new subscription", () => {
    const store = new PendingActionStore();
    const seen: string[] = [];
    const listener = (event: { type: string }) => seen.push(event.type);
    const first = store.subscribe(listener);
    first();
    store.subscribe(listener);
    first(); // late, again
    store.push({ label: "Write a.txt", apply: async () => textResult("written") });
    expect(seen).toEqual(["action-pending"]);
  });

  it("a listener subscribed twice to a session stays subscribed until both are removed", () => {
    const session = new Session();
    const seen: string[] = [];
    const listener = (event: { type: string }) => seen.push(event.type);
    const one = session.subscribe(listener);
    session.subscribe(listener);
    one();
    session.pending.push({ label: "Write a.txt", apply: async () => textResult("written") });
    expect(seen).toContain("action-pending");
  });
});
