import { Type } from "@sinclair/typebox";
import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ToolCallFaultEvent } from "../src/session/execute/tool-call-fault.js";
import { Session } from "../src/session/session.js";
import { textOf } from "./fake-context.js";
import { resultScenarios } from "./hostile-tools/results.js";
import type { HostileScenario, World } from "./hostile-tools/scenario.js";
import { settlingScenarios } from "./hostile-tools/settling.js";
import { sideChannelScenarios } from "./hostile-tools/side-channels.js";
import { throwingScenarios } from "./hostile-tools/throwing.js";
import { echoTool } from "./tools.js";

// Each hostile tool runs in a session that already holds one pending action (the sentinel).
// After its call the harness proves the session still works: no unhandled rejection, a
// canary call succeeds, the stack still holds exactly the sentinel, and resolve applies it.

const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on("unhandledRejection", recordUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", recordUnhandled);
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  unhandled.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Microtasks and one real macrotask turn: enough for Node to report an unhandled rejection. */
async function flush(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function runScenario(scenario: HostileScenario): Promise<void> {
  const session = new Session({ pendingPolicy: "allow", executeTimeoutMs: 1000, ...scenario.options });
  session.register({
    name: "hostile",
    label: "Hostile",
    description: "misbehaves",
    parameters: Type.Object({
      text: Type.Optional(Type.String()),
      list: Type.Optional(Type.Array(Type.String())),
    }),
    execute: scenario.execute,
  });
  session.register(echoTool("canary"));
  const applied: string[] = [];
  const sentinel = session.pending.push({
    label: "Sentinel",
    apply: async () => {
      applied.push("sentinel");
      return textResult("sentinel applied");
    },
  });
  let answered = false;
  const world: World = {
    params: { text: "hi", list: ["a"] },
    updates: [],
    faults: [],
    host: new AbortController(),
    answered: () => answered,
    flush,
  };
  session.subscribe((event) => {
    if (event.type === "tool-call-fault") world.faults.push(event as ToolCallFaultEvent);
  });

  const call = session.execute({
    toolCallId: "hostile-1",
    name: "hostile",
    params: world.params,
    signal: world.host.signal,
    onUpdate: scenario.hostOnUpdate?.(world) ?? ((partial: AgentToolResult) => world.updates.push(partial)),
  });
  void call.then(() => {
    answered = true;
  });
  await scenario.drive?.(world);
  const result = await call;
  await scenario.check(result, world);

  await flush();
  expect(unhandled).toEqual([]);
  expect(
    await session.execute({ toolCallId: "canary-1", name: "canary", params: { text: "alive" } }),
  ).toEqual(textResult("alive"));
  expect(session.pending.list().map((record) => record.id)).toEqual([sentinel.id]);
  const resolved = await session.execute({
    toolCallId: "resolve-1",
    name: "resolve",
    params: { action: "apply", reason: "the session survived" },
  });
  expect(textOf(resolved)).toBe("sentinel applied");
  expect(applied).toEqual(["sentinel"]);
  expect(session.pending.hasPending).toBe(false);
  await session.dispose();
}

describe.each([
  ["throws", throwingScenarios],
  ["settles", settlingScenarios],
  ["returns", resultScenarios],
  ["misuses a side channel", sideChannelScenarios],
])("a hostile tool that %s", (_family, scenarios) => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", async (_name, scenario) => {
    await runScenario(scenario.make());
  });
});

it("covers at least 15 hostile tools", () => {
  const count = [throwingScenarios, settlingScenarios, resultScenarios, sideChannelScenarios].flat().length;
  expect(count).toBeGreaterThanOrEqual(15);
});
