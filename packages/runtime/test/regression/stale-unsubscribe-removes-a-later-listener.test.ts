// Found while reading the event bus fix: `session.subscribe` and `pending.subscribe` kept their
// listeners in a Set, so the function a subscribe returned removed the listener itself, not
// that subscription. Called again late (a cleanup in a `finally` after an early unsubscribe),
// it removed a later subscription of the same listener, which then missed every event without
// a word. A remover now ends only its own subscription; a listener added twice while it
// listens is still one subscription, as before (a host that subscribes each turn gets no copies).
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

  it("a session's remover called late leaves a later subscription of the same listener", () => {
    const session = new Session();
    const seen: string[] = [];
    const listener = (event: { type: string }) => seen.push(event.type);
    const first = session.subscribe(listener);
    first();
    session.subscribe(listener);
    first(); // late, again
    session.pending.push({ label: "Write a.txt", apply: async () => textResult("written") });
    expect(seen).toContain("action-pending");
  });

  it("a listener added twice while it listens is one subscription (called once), as before", () => {
    const store = new PendingActionStore();
    const seen: string[] = [];
    const listener = (event: { type: string }) => seen.push(event.type);
    store.subscribe(listener);
    store.subscribe(listener);
    store.push({ label: "Write a.txt", apply: async () => textResult("written") });
    expect(seen).toEqual(["action-pending"]);
  });
});
