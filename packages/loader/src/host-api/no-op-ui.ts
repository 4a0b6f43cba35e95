import type { UIContext } from "@tooldock/sdk";

/** The UI tools see when the host has none: every question resolves to "no answer". */
export const noOpUI: UIContext = Object.freeze({
  select: async () => undefined,
  confirm: async () => false,
  input: async () => undefined,
  notify: () => {},
});
