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

/** pi's last argument to its dialogs: `timeout` (ms) and `signal` dismiss the dialog. */
interface DialogOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/**
 * The host's answer to `ask()`, or `dismissed` once `options.timeout` ms have passed or
 * `options.signal` aborts, as pi's own dialogs answer then (an aborted signal at once, without
 * asking). The host's UI has no such argument: its dialog may stay open, its answer unread.
 */
function dismissible<T>(options: DialogOptions | undefined, dismissed: T, ask: () => Promise<T>): Promise<T> {
  const signal = options?.signal instanceof AbortSignal ? options.signal : undefined;
  const timeout = typeof options?.timeout === "number" && options.timeout > 0 ? options.timeout : undefined;
  if (signal?.aborted) return Promise.resolve(dismissed);
  if (signal === undefined && timeout === undefined) return ask();
  return new Promise<T>((resolve, reject) => {
    const settle = (settled: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", dismiss);
      settled();
    };
    const dismiss = () => settle(() => resolve(dismissed));
    const timer = timeout === undefined ? undefined : setTimeout(dismiss, timeout);
    signal?.addEventListener("abort", dismiss, { once: true });
    new Promise<T>((asked) => asked(ask())).then(
      (answer) => settle(() => resolve(answer)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** One per host `pi`: a tool's every call reads the same. */
const uis = new WeakMap<CustomToolAPI, UIContext>();

/**
 * pi's `ctx.ui` for an extension, once per `api`: the host's dialogs (`api.ui` read at each call,
 * so a UI attached later answers), dismissed on pi's `timeout` or `signal` ({@link dismissible}),
 * and pi's terminal-only methods ({@link TERMINAL_ONLY}).
 */
export function piUI(api: CustomToolAPI): UIContext {
  return remembered(uis, api, () =>
    Object.freeze({
      ...TERMINAL_ONLY,
      select: (title: string, options: string[], dialog?: DialogOptions) =>
        dismissible(dialog, undefined, () => api.ui.select(title, options)),
      confirm: (title: string, message: string, dialog?: DialogOptions) =>
        dismissible(dialog, false, () => api.ui.confirm(title, message)),
      input: (title: string, placeholder?: string, dialog?: DialogOptions) =>
        dismissible(dialog, undefined, () => api.ui.input(title, placeholder)),
      notify: (...args: Parameters<UIContext["notify"]>) => api.ui.notify(...args),
    }),
  );
}
