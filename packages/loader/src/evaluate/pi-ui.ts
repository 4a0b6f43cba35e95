import type { CustomToolAPI, UIContext } from "@tooldock/sdk";
import { inertTheme } from "../compile/host-packages/themes.js";
import { remembered } from "../remembered.js";

/** A stand-in that does nothing and answers `undefined`. */
export const nothing = (): undefined => undefined;

/**
 * What pi's `ExtensionUIContext` has besides Tooldock's dialogs, for its terminal: each does what
 * it does in pi's headless mode, nothing or the empty answer; `theme` styles nothing.
 */
const TERMINAL_ONLY = {
  onTerminalInput: () => nothing,
  setStatus: nothing,
  setWorkingMessage: nothing,
  setWidget: nothing,
  setFooter: nothing,
  setHeader: nothing,
  setTitle: nothing,
  custom: async () => undefined,
  pasteToEditor: nothing,
  setEditorText: nothing,
  getEditorText: () => "",
  editor: async () => undefined,
  setEditorComponent: nothing,
  theme: inertTheme(),
  getAllThemes: () => [],
  getTheme: () => undefined,
  setTheme: () => ({ success: false, error: "UI not available" }),
  getToolsExpanded: () => false,
  setToolsExpanded: nothing,
} as const;

/** One per host `pi`: a tool's every call reads the same. */
const uis = new WeakMap<CustomToolAPI, UIContext>();

/**
 * pi's `ctx.ui` for an extension, once per `api`: the host's dialogs (`api.ui` read at each call,
 * so a UI attached later answers) and pi's terminal-only methods ({@link TERMINAL_ONLY}).
 */
export function piUI(api: CustomToolAPI): UIContext {
  return remembered(uis, api, () =>
    Object.freeze({
      ...TERMINAL_ONLY,
      select: (...args: Parameters<UIContext["select"]>) => api.ui.select(...args),
      confirm: (...args: Parameters<UIContext["confirm"]>) => api.ui.confirm(...args),
      input: (...args: Parameters<UIContext["input"]>) => api.ui.input(...args),
      notify: (...args: Parameters<UIContext["notify"]>) => api.ui.notify(...args),
    }),
  );
}
