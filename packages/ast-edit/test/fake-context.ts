import type { CustomToolContext } from "@tooldock/sdk";

/** A CustomToolContext for calling a tool's `execute` or `onSession` directly in tests. */
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
