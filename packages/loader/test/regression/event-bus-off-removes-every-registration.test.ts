// Found by a review: `pi.events.off(channel, handler)` removed every registration of the
// handler, while the function `on` returns removed one, and not always its own (the first
// equal handler, so the order of the others changed). pi's bus (`createEventBus` in
// pi-mono's coding-agent) has only `on`, whose remover takes off exactly the registration it
// made; Node's `EventEmitter.off`, which pi's bus was built on, removes one registration, the
// latest. Both now remove one: the remover its own, `off` the latest.
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";

describe("event-bus-off-removes-every-registration", () => {
  it("off(channel, handler) removes one registration of a handler added twice: the latest", () => {
    const { events } = new ToolHost({ cwd: process.cwd() });
    const seen: string[] = [];
    const twice = (data: unknown) => seen.push(`twice ${String(data)}`);
    events.on("job", twice);
    events.on("job", (data) => seen.push(`other ${String(data)}`));
    events.on("job", twice);
    events.off("job", twice);
    events.emit("job", 1);
    expect(seen).toEqual(["twice 1", "other 1"]);
    events.off("job", twice);
    events.emit("job", 2);
    expect(seen.slice(2)).toEqual(["other 2"]);
  });

  it("the function on returns removes the registration it made, not another of the same handler", () => {
    const { events } = new ToolHost({ cwd: process.cwd() });
    const seen: string[] = [];
    const twice = () => seen.push("twice");
    events.on("job", twice);
    events.on("job", () => seen.push("other"));
    const removeSecond = events.on("job", twice);
    removeSecond();
    events.emit("job");
    expect(seen).toEqual(["twice", "other"]);
  });
});
