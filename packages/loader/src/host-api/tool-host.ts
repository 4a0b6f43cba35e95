import { resolve } from "node:path";
import * as TypeBox from "@sinclair/typebox";
import type { CustomToolAPI, CustomToolPendingAction, Logger, UIContext } from "@tooldock/sdk";
import * as Sdk from "@tooldock/sdk";
import * as Zod from "zod";
import { registerHostModule } from "../compile/host-modules.js";
import { execCommand } from "./exec.js";
import { noOpUI } from "./no-op-ui.js";
import { silentLogger } from "./silent-logger.js";

/** Exact message of the error `pushPendingAction` throws when no session is active (SPEC §5). */
export const PENDING_STORE_UNAVAILABLE_MESSAGE =
  "Pending action store unavailable for custom tools in this runtime.";

/** What the host needs of a session: its pending action store. A runtime `Session` fits. */
export interface ToolHostSession {
  readonly pending: { push(action: CustomToolPendingAction): unknown };
}

/** Options of {@link ToolHost}. */
export interface ToolHostOptions {
  /** The `cwd` tools see and `exec` runs in. Default: `process.cwd()`. */
  cwd?: string;
  /** The user interface; tools get a no-op UI (and `hasUI: false`) until one is set. */
  ui?: UIContext;
  /** Where tools' `pi.logger` writes. Default: a logger that drops every message. */
  logger?: Logger;
}

/**
 * Owns the `pi` API a load hands to tool factories. What tools read through it is looked up
 * at call time: `pushPendingAction` pushes onto the **active session's** store (set with
 * {@link ToolHost.setActiveSession}), and `ui` / `hasUI` reflect the UI set last.
 *
 * @example
 * ```ts
 * const host = new ToolHost({ cwd });
 * const { tools } = await loadCustomTools({ paths: ["./tools"], host });
 * host.setActiveSession(session); // tools' pushPendingAction now reaches session.pending
 * ```
 */
export class ToolHost {
  readonly cwd: string;
  #session: ToolHostSession | undefined;
  #ui: UIContext | undefined;
  readonly #logger: Logger;

  constructor(options: ToolHostOptions = {}) {
    this.cwd = resolve(options.cwd ?? process.cwd());
    this.#ui = options.ui;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The session whose pending stack `pushPendingAction` uses; `undefined` detaches it. */
  setActiveSession(session: ToolHostSession | undefined): void {
    this.#session = session;
  }

  /** The session set last, if any. */
  get activeSession(): ToolHostSession | undefined {
    return this.#session;
  }

  /** Attaches (or with `undefined` detaches) the user interface tools see. */
  setUIContext(ui: UIContext | undefined): void {
    this.#ui = ui;
  }

  /** A `pi` object for tool factories, bound to this host. */
  createAPI(): CustomToolAPI {
    const host = this;
    return {
      cwd: host.cwd,
      exec: (command, args, options) => execCommand(command, args, host.cwd, options),
      logger: host.#logger,
      get ui() {
        return host.#ui ?? noOpUI;
      },
      get hasUI() {
        return host.#ui !== undefined;
      },
      typebox: registerHostModule("@sinclair/typebox", TypeBox) as typeof TypeBox,
      zod: (registerHostModule("zod", Zod) as typeof Zod).z,
      pi: registerHostModule("@tooldock/sdk", Sdk) as typeof Sdk,
      pushPendingAction(action) {
        const store = host.#session?.pending;
        if (store === undefined || store === null) throw new Error(PENDING_STORE_UNAVAILABLE_MESSAGE);
        store.push(action);
      },
    };
  }
}
