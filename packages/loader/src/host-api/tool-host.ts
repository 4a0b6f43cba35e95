import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import * as TypeBox from "@sinclair/typebox";
import { runningToolCall, trackToolCalls } from "@tooldock/runtime";
import type {
  CustomToolAPI,
  CustomToolDurableAction,
  CustomToolPendingAction,
  EventBus,
  Logger,
  UIContext,
} from "@tooldock/sdk";
import * as Sdk from "@tooldock/sdk";
import type * as Zod from "zod";
import { registerHostModule } from "../compile/host-modules.js";
import { PI_CODING_AGENT, piCodingAgentNamespace } from "../compile/host-packages/namespaces.js";
import { loadZodModule } from "../compile/load-zod.js";
import { orElse } from "../discover/expand-path.js";
import { createEventBus, handlerErrorMessage } from "./event-bus.js";
import { execCommand } from "./exec.js";
import { noOpUI } from "./no-op-ui.js";
import { createSendMessage } from "./send-message.js";
import { createToolLogger } from "./tool-logger.js";

const drop = () => {};
/** The logger tools get when the host passes none: it drops every message. */
const silentLogger: Logger = Object.freeze({ debug: drop, info: drop, warn: drop, error: drop });

/** Exact message of the error `pushPendingAction` throws outside any call with no active session (docs/contract.md §5). */
export const PENDING_STORE_UNAVAILABLE_MESSAGE =
  "Pending action store unavailable for custom tools in this runtime.";

/** What the host needs of a session: its pending action store. A runtime `Session` fits. */
export interface ToolHostSession {
  readonly pending: { push(action: CustomToolPendingAction | CustomToolDurableAction): unknown };
}

/**
 * Where tools' `pi.ui` comes from: one user interface for every call, or one per session,
 * looked up at each read by the `sessionId` of the tool call running then (`undefined`
 * outside any call); `undefined` from it is no UI (`pi.hasUI` is `false`). A server with a
 * client per session (`tooldock mcp --http`) answers each call's questions with its client.
 */
export type UISource = UIContext | ((sessionId: string | undefined) => UIContext | undefined);

/** Options of {@link ToolHost}. */
export interface ToolHostOptions {
  /** The `cwd` tools see and `exec` runs in. Default: `process.cwd()`. */
  cwd?: string;
  /** The user interface; tools get a no-op UI (and `hasUI: false`) until one is set. */
  ui?: UISource;
  /** Where tools' `pi.logger` writes. Default: a logger that drops every message. */
  logger?: Logger;
}

/**
 * Owns the `pi` API a load hands to tool factories. What tools read through it is looked up
 * at call time: `pushPendingAction` pushes onto the store of the session **whose tool call is
 * running** (a runtime `Session` carries its call through the tool's awaits and timers), so
 * one host serves many sessions at once; outside any call it falls back to the **active
 * session** (set with {@link ToolHost.setActiveSession}). `ui` / `hasUI` reflect the UI set
 * last (per session, for a {@link UISource} function).
 *
 * @example
 * ```ts
 * const host = new ToolHost({ cwd });
 * const { tools } = await loadCustomTools({ paths: ["./tools"], host });
 * for (const { tool, path } of tools) { a.register(tool, path); b.register(tool, path); }
 * await a.execute(call); // the tool's pi.pushPendingAction reaches a.pending, never b's
 * ```
 */
export class ToolHost {
  readonly cwd: string;
  #session: ToolHostSession | undefined;
  #ui: UISource | undefined;
  readonly #logger: Logger;
  /**
   * The bus the host's tools share as `pi.events`: subscribe to what they emit, or emit to
   * them. `pi.sendMessage` arrives here on `"tooldock:message"` (`TOOL_MESSAGE_CHANNEL`). A
   * handler that throws is logged (`warn`) and the others still run.
   */
  readonly events: EventBus;

  constructor(options: ToolHostOptions = {}) {
    this.cwd = resolve(options.cwd ?? process.cwd());
    this.#ui = options.ui;
    const logger = options.logger ?? silentLogger;
    this.#logger = logger;
    this.events = createEventBus((channel, error) => logger.warn(handlerErrorMessage(channel, error)));
    trackToolCalls(); // sessions carry each call through its awaits, for pushPendingAction
  }

  /**
   * The session whose pending stack `pushPendingAction` uses outside any tool call (in a
   * factory or an `onSession` hook); `undefined` detaches it. Calls run by a `Session` always
   * stage onto that session.
   */
  setActiveSession(session: ToolHostSession | undefined): void {
    this.#session = session;
  }

  /** The session set last, if any. */
  get activeSession(): ToolHostSession | undefined {
    return this.#session;
  }

  /** Attaches (or with `undefined` detaches) the user interface tools see. */
  setUIContext(ui: UISource | undefined): void {
    this.#ui = ui;
  }

  /** The user interface a call of `sessionId` sees (`undefined`: none). */
  uiFor(sessionId: string | undefined): UIContext | undefined {
    const ui = this.#ui;
    return typeof ui === "function" ? ui(sessionId) : ui;
  }

  /** A `pi` object for tool factories, bound to this host. */
  createAPI(): CustomToolAPI {
    const host = this;
    return {
      cwd: host.cwd,
      exec: (command, args, options) => execCommand(command, args, host.cwd, options),
      logger: createToolLogger(host.#logger),
      events: host.events,
      sendMessage: createSendMessage(host.events),
      get ui() {
        return host.uiFor(runningToolCall()?.sessionId) ?? noOpUI;
      },
      get hasUI() {
        return host.uiFor(runningToolCall()?.sessionId) !== undefined;
      },
      // pi's: the jiti CLI, for tools that run TypeScript in a child process. Found on first read.
      get jitiCliPath() {
        return jitiCliPath();
      },
      typebox: registerHostModule("@sinclair/typebox", TypeBox) as typeof TypeBox,
      // Loaded on first read: most tools never read it (see load-zod.ts).
      get zod() {
        return (registerHostModule("zod", () => loadZodModule("zod")) as typeof Zod).z;
      },
      // The SDK plus what pi, oh-my-pi and xcsh put on `pi.pi` (StringEnum, Type, inert UI).
      pi: registerHostModule(PI_CODING_AGENT, () =>
        piCodingAgentNamespace(
          registerHostModule("@tooldock/sdk", Sdk),
          registerHostModule("@sinclair/typebox", TypeBox),
        ),
      ) as typeof Sdk,
      pushPendingAction(action) {
        // The calling session's, even after its call ended (then it throws E_CALL_ENDED).
        const call = runningToolCall();
        if (call !== undefined) {
          call.pushPendingAction(action);
          return;
        }
        const store = host.#session?.pending;
        if (store === undefined || store === null) throw new Error(PENDING_STORE_UNAVAILABLE_MESSAGE);
        store.push(action);
      },
    };
  }
}

/** `null` once looked for and not found. */
let foundJitiCli: string | null | undefined;

/**
 * The absolute path of the CLI of the jiti Tooldock ships (`jiti/lib/jiti-cli.mjs`, from its
 * package's `bin`), which pi hands its tools as `pi.jitiCliPath`: subagent tools start
 * `node <jitiCliPath> worker.ts` to run TypeScript in a child process. Found once, on first
 * read; `undefined` where jiti cannot be resolved (then such a tool says it needs it).
 */
function jitiCliPath(): string | undefined {
  foundJitiCli ??= orElse(() => {
    const require = createRequire(import.meta.url);
    const manifestPath = require.resolve("jiti/package.json");
    const { bin } = require(manifestPath) as { bin?: string | Record<string, string> };
    const cli = typeof bin === "string" ? bin : bin?.jiti;
    return cli === undefined ? null : join(dirname(manifestPath), cli);
  }, null);
  return foundJitiCli ?? undefined;
}
