import type { CustomToolAPI, CustomToolContext } from "@tooldock/sdk";
import { piSessionManager } from "./pi-session-manager.js";
import { piUI } from "./pi-ui.js";

/** What `ctx.compact()`'s `onError` gets: a Tooldock host keeps no conversation to compact. */
const NO_COMPACTION =
  "ctx.compact() did nothing: a Tooldock host does not compact its conversation (its host, not the tool, manages the context window).";

/**
 * `ctx` as pi's `ExtensionContext`, as far as Tooldock has it: `ui` ({@link piUI}) and `hasUI`
 * the host's; `hasPendingMessages()` is `hasQueuedMessages()`; `modelRegistry` knows `ctx.model`
 * and no API key; `sessionManager` has pi's reads ({@link piSessionManager}); `shutdown()` does nothing. What a Tooldock host cannot tell answers as pi does
 * when it does not know: `getContextUsage()` `undefined`, `getSystemPrompt()` `""`; `compact()`
 * calls its `onError`, so an extension waiting for `onComplete` hears it will not come. A
 * context with a `ui` already, or no object, as it is.
 */
export function piExtensionContext<T>(ctx: T, api: CustomToolAPI): T {
  if (typeof ctx !== "object" || ctx === null || "ui" in ctx) return ctx;
  const context = ctx as unknown as CustomToolContext;
  const extended = Object.create(Object.getPrototypeOf(ctx), Object.getOwnPropertyDescriptors(ctx));
  const models = () => (context.model === undefined ? [] : [context.model]);
  if (context.sessionManager !== undefined)
    Object.defineProperty(extended, "sessionManager", {
      value: piSessionManager(context.sessionManager),
      enumerable: true,
    });
  Object.defineProperties(extended, {
    ui: { value: piUI(api), enumerable: true },
    hasUI: { get: () => api.hasUI, enumerable: true },
    hasPendingMessages: { value: () => context.hasQueuedMessages?.() === true, enumerable: true },
    shutdown: { value: () => {}, enumerable: true },
    getContextUsage: { value: () => undefined, enumerable: true },
    getSystemPrompt: { value: () => "", enumerable: true },
    compact: {
      value: (options?: { onError?: (error: Error) => void }) => options?.onError?.(new Error(NO_COMPACTION)),
      enumerable: true,
    },
    modelRegistry: {
      value: Object.freeze({
        getAll: models,
        getAvailable: models,
        find: (provider: string, id: string) =>
          models().find((model) => model.provider === provider && model.id === id),
        getApiKey: async () => undefined,
        getApiKeyForProvider: async () => undefined,
        isUsingOAuth: () => false,
        getError: () => undefined,
        refresh: () => {},
      }),
      enumerable: true,
    },
  });
  return extended;
}
