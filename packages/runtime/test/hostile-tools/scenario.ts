import type { AgentToolResult, CustomTool } from "@tooldock/sdk";
import { expect } from "vitest";
import type { ToolCallFault, ToolCallFaultEvent } from "../../src/session/execute/tool-call-fault.js";
import type { SessionOptions } from "../../src/session/session-options.js";
import { textOf } from "../fake-context.js";

/** The host's side of one hostile call, as the harness sets it up and observes it. */
export interface World {
  /** The arguments object the host passed (the model's record of the call). */
  params: { text?: string; list?: string[] };
  /** Partial results the host's `onUpdate` received. */
  updates: AgentToolResult[];
  /** `tool-call-fault` events the session emitted. */
  faults: ToolCallFaultEvent[];
  /** Aborting it aborts the call, like a user pressing stop. */
  host: AbortController;
  /** Whether `execute` has answered yet. */
  answered(): boolean;
  /** Lets late work run: microtasks and one real macrotask turn (timers stay fake). */
  flush(): Promise<void>;
}

/** One hostile tool and what the host must see. */
export interface HostileScenario {
  /** The hostile tool's `execute`; its parameters are `{ text?: string, list?: string[] }`. */
  execute: CustomTool["execute"];
  /** Beyond the harness defaults (`pendingPolicy: "allow"`, `executeTimeoutMs: 1000`). */
  options?: SessionOptions;
  /** The host's `onUpdate`; default: records into `world.updates`. */
  hostOnUpdate?: (world: World) => (partial: AgentToolResult) => unknown;
  /** Runs while the call is in flight: advance fake timers, abort, release gates. */
  drive?: (world: World) => Promise<unknown>;
  /** Asserts the answer; may do late work (after the call ended) and assert on it too. */
  check: (result: AgentToolResult, world: World) => void | Promise<void>;
}

/** A named scenario; `make` builds fresh state for each run. */
export interface NamedScenario {
  name: string;
  make: () => HostileScenario;
}

/** The tail every "tool failed" message ends with. */
const FAILED_TAIL = ". Check the arguments and the current state, then retry or try another approach.";

/** Asserts the exact `Tool "hostile" failed: <shown>.` error result. */
export function expectFailed(result: AgentToolResult, shown: string): void {
  expect(result.isError).toBe(true);
  expect(textOf(result)).toBe(`Tool "hostile" failed: ${shown}${FAILED_TAIL}`);
}

/** Asserts a malformed-result error naming `problem`. */
export function expectMalformed(result: AgentToolResult, problem: string): void {
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain(`Tool "hostile" returned a malformed result: ${problem}`);
  expect(textOf(result)).toContain("fault in the tool");
}

/** The kinds of fault events, in order. */
export function faultKinds(world: World): ToolCallFault[] {
  return world.faults.map((event) => event.fault);
}
