import type { CustomToolContext } from "@tooldock/sdk";

/** A CustomToolContext for calling a tool's execute directly in tests. */
export function fakeContext(overrides: Partial<CustomToolContext> = {}): CustomToolContext {
  return {
    sessionId: "test-session",
    cwd: "/tmp",
    hasPendingActions: () => false,
    abort: () => {},
    pushPendingAction: () => {},
    ...overrides,
  };
}

/** The text blocks of a result, joined by newlines. */
export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** A promise with its resolve and reject exposed. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}
