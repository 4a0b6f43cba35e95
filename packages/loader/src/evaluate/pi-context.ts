import type { CustomToolAPI, CustomToolContext } from "@tooldock/sdk";
import { piUI } from "./pi-ui.js";

/**
 * `ctx` as pi's `ExtensionContext`, as far as Tooldock has it: `ui` ({@link piUI}) and `hasUI`
 * the host's; `hasPendingMessages()` is `hasQueuedMessages()`; `modelRegistry` knows `ctx.model`
 * and no API key; `shutdown()` does nothing. A context with a `ui` already, or no object, as it is.
 */
export function piExtensionContext<T>(ctx: T, api: CustomToolAPI): T {
  if (typeof ctx !== "object" || ctx === null || "ui" in ctx) return ctx;
  const context = ctx as unknown as CustomToolContext;
  const extended = Object.create(Object.getPrototypeOf(ctx), Object.getOwnPropertyDescriptors(ctx));
  const models = () => (context.model === undefined ? [] : [context.model]);
  Object.defineProperties(extended, {
    ui: { value: piUI(api), enumerable: true },
    hasUI: { get: () => api.hasUI, enumerable: true },
    hasPendingMessages: { value: () => context.hasQueuedMessages?.() === true, enumerable: true },
    shutdown: { value: () => {}, enumerable: true },
    modelRegistry: {
      value: Object.freeze({
        getAll: models,
        getAvailable: models,
        find: (provider: string, id: string) =>
          models().find((model) => model.provider === provider && model.id === id),
        getApiKey: async () => undefined,
        getApiKeyForProvider: async () => undefined,
      }),
      enumerable: true,
    },
  });
  return extended;
}
