import type {
  CustomTool,
  CustomToolAPI,
  CustomToolContext,
  CustomToolSessionEvent,
  Diagnostic,
} from "@tooldock/sdk";
import { createWarning } from "../diagnostics.js";
import { orElse } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";
import { piExtensionContext } from "./pi-context.js";
import { hasGuidelines, nameOf, withPiContext } from "./pi-registered-tool.js";
import { nothing } from "./pi-ui.js";

/** pi's session events that Tooldock's session has: run as the extension's tools' `onSession`. */
const SESSION_EVENTS = { session_start: "start", session_shutdown: "shutdown" } as const;

/**
 * pi's session events that never happen in a Tooldock session (it neither switches, forks nor
 * branches a conversation): accepted without a word, as their handlers would never run in a
 * pi session that does none of these either.
 */
const QUIET_EVENTS = new Set([
  "session_before_switch",
  "session_switch",
  "session_before_fork",
  "session_fork",
  "session_before_tree",
  "session_tree",
  "session_before_compact",
  "session_compact",
]);

/**
 * What each `register…` call of pi's `ExtensionAPI` that Tooldock does not run is for, and pi's
 * actions on its session and agent, which a Tooldock host (headless, one model, its own tool
 * list) cannot carry out: what each is for, and its stand-in's answer.
 */
const IGNORED: Record<string, [what: string, answer: () => unknown]> = {
  registerCommand: ["slash commands", nothing],
  registerShortcut: ["keyboard shortcuts", nothing],
  registerMessageRenderer: ["message renderers", nothing],
  registerProvider: ["model providers", nothing],
  sendUserMessage: ["user messages", nothing],
  appendEntry: ["session entries", nothing],
  setSessionName: ["session names", nothing],
  getSessionName: ["session names; answered undefined", nothing],
  setLabel: ["entry labels", nothing],
  getActiveTools: ["the agent's active tools; answered []", () => []],
  getAllTools: ["the agent's tools; answered []", () => []],
  setActiveTools: ["the agent's active tools", nothing],
  getCommands: ["slash commands; answered []", () => []],
  setModel: ["model selection; resolves false", async () => false],
  getThinkingLevel: ['thinking levels; answered "off"', () => "off"],
  setThinkingLevel: ["thinking levels", nothing],
  unregisterProvider: ["model providers", nothing],
};

type Handler = (event: unknown, ctx: CustomToolContext) => unknown;

/** What a module using a feature Tooldock does not run is told to do. */
const DEFAULT_HINT = "Nothing to fix for Tooldock; if a tool depends on it, make the tool work without it.";

/**
 * What one module registered through pi's `ExtensionAPI` (`export default (pi) => {
 * pi.registerTool({...}); pi.on("session_start", …) }`): the tools, the session handlers, and
 * the features Tooldock accepts without running, each named once.
 */
export class ExtensionRegistrations {
  readonly #module: DiscoveredModule;
  readonly #tools: unknown[] = [];
  readonly #handlers = new Map<string, Handler[]>();
  /** Feature → what it is (and what to do instead, when not the usual), in the order first used. */
  readonly #ignored = new Map<string, { what: string; hint?: string }>();
  /** Flag → the default `registerFlag` gave it: what `getFlag` reads, as no flag is ever set. */
  readonly #flags = new Map<string, unknown>();
  /** The host's `pi` under the module's, once {@link api} made it: what the handlers' `ui` reads. */
  #base: CustomToolAPI | undefined;
  #closed = false;
  /** The names of the module's entries, once the load closed them. */
  #loaded = new Set<string>();
  /** Names a session handler registered since, new to the module: never loaded, to be reported. */
  readonly #late: string[] = [];

  constructor(module: DiscoveredModule) {
    this.#module = module;
  }

  /** The `pi` the module's factory gets: `base` (shared by every module) with the extension methods. */
  api(base: CustomToolAPI): CustomToolAPI {
    this.#base = base;
    const api = Object.create(base) as Record<string, unknown>;
    api.registerTool = (tool: unknown) => this.#register(tool, base);
    api.on = (event: unknown, handler: unknown) => this.#on(event, handler);
    for (const [method, [what, answer]] of Object.entries(IGNORED)) {
      api[method] = () => {
        this.#ignore(`pi.${method}`, what);
        return answer();
      };
    }
    // Flags are never set in Tooldock: a flag reads as its registered default, as in a pi
    // session started without it (pi's first default wins); one not registered, as not given.
    api.registerFlag = (name: unknown, options?: { default?: unknown }) => {
      this.#ignore("pi.registerFlag", "command-line flags");
      const value = options?.default;
      if (typeof name === "string" && value !== undefined && !this.#flags.has(name))
        this.#flags.set(name, value);
    };
    api.getFlag = (name: unknown) => (typeof name === "string" ? this.#flags.get(name) : undefined);
    return api as unknown as CustomToolAPI;
  }

  /**
   * Adds `tool` to the module's entries; one named as an earlier registered tool takes its place,
   * as pi keeps an extension's tools by name (the last registered wins). A name that cannot be
   * read is the accept stage's to report.
   */
  #register(tool: unknown, base: CustomToolAPI): void {
    const name = nameOf(tool);
    if (this.#closed) {
      if (name !== undefined && !this.#loaded.has(name) && !this.#late.includes(name)) this.#late.push(name);
      return;
    }
    if (hasGuidelines(tool))
      this.#ignore(
        "pi.registerTool({ promptGuidelines })",
        "guidelines pi adds to its system prompt",
        "A Tooldock host has no system prompt and gives the model only the tool's description: put what the model must follow in the description.",
      );
    const earlier = name === undefined ? -1 : this.#tools.findIndex((entry) => nameOf(entry) === name);
    if (earlier === -1) this.#tools.push(withPiContext(tool, base));
    else this.#tools[earlier] = withPiContext(tool, base);
  }

  /**
   * Notes a feature the module used that Tooldock does not run: a warning of the load while it
   * loads; once it has loaded (a tool's call, a session handler), the first use of each is a
   * warning on the host's logger instead, the load's diagnostics being out.
   */
  #ignore(feature: string, what: string, hint?: string): void {
    if (this.#ignored.has(feature)) return;
    this.#ignored.set(feature, hint === undefined ? { what } : { what, hint });
    if (this.#closed)
      this.#base?.logger.warn(
        `${this.#module.path} uses ${feature} (${what}), which a Tooldock host does not have: the call did nothing. ${hint ?? DEFAULT_HINT}`,
      );
  }

  #on(event: unknown, handler: unknown): void {
    if (typeof event !== "string" || typeof handler !== "function") return;
    if (Object.hasOwn(SESSION_EVENTS, event))
      this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), handler as Handler]);
    else if (!QUIET_EVENTS.has(event)) this.#ignore(`pi.on("${event}")`, "agent events");
  }

  /** True once the module registered anything through the extension API. */
  get used(): boolean {
    return this.#tools.length > 0 || this.#handlers.size > 0 || this.#ignored.size > 0;
  }

  /** Whether it registered `session_start` handlers but, so far, no tool. */
  get toolsAwaitStart(): boolean {
    return this.#tools.length === 0 && this.#handlers.has("session_start");
  }

  /** Runs the `session_start` handlers once at load, for an extension that registers its tools there. */
  async startAtLoad(ctx: CustomToolContext): Promise<void> {
    const context = this.#piContext(ctx);
    for (const handler of this.#handlers.get("session_start") ?? [])
      await handler({ type: "session_start" }, context);
  }

  /** `ctx` as the extension's handlers get it: with pi's `ui` and `hasUI`, as its tools' have. */
  #piContext(ctx: CustomToolContext): CustomToolContext {
    return this.#base === undefined ? ctx : piExtensionContext(ctx, this.#base);
  }

  /**
   * The module's entries: what its factory returned, then the tools it registered (later
   * `registerTool` calls are ignored: a load's tools are fixed when it ends).
   *
   * The session handlers run once per session event, whichever entries are accepted: every
   * object entry carries them in its `onSession` (after its own), and the first a session
   * notifies runs them from then on. Decided by the calls, as in a tool host each entry gets its
   * own copy of every event. An entry whose `onSession` is neither a function nor absent, or
   * cannot be read, is left for the accept stage.
   */
  entries(returned: unknown[]): unknown[] {
    this.#closed = true;
    const handlers = this.#handlers;
    // What the factory returned is read by the accept stage (a list whose reads throw is that
    // stage's E_INVALID_TOOL): untouched unless the module registered too.
    if (this.#tools.length === 0 && handlers.size === 0) return returned;
    const entries = orElse<unknown[] | undefined>(() => [...returned, ...this.#tools], undefined);
    if (entries === undefined) return returned;
    this.#loaded = new Set(entries.map(nameOf).filter((name) => name !== undefined));
    if (handlers.size === 0) return entries;
    let runner: object | undefined;
    const runHandlers = async (event: CustomToolSessionEvent, ctx: CustomToolContext) => {
      const name = event.reason === "start" ? "session_start" : "session_shutdown";
      const context = this.#piContext(ctx);
      const late: string[] = [];
      try {
        for (const handler of handlers.get(name) ?? []) await handler({ type: name, ...event }, context);
      } finally {
        late.push(...this.#late.splice(0));
      }
      // After every handler ran: the warning (the session's W_ON_SESSION_FAILED) costs nothing else.
      if (late.length > 0) throw lateRegistration(this.#module.path, name, late);
    };
    return entries.map((entry) => {
      if (typeof entry !== "object" || entry === null) return entry;
      const tool = entry as CustomTool;
      let own: unknown;
      try {
        own = tool.onSession;
      } catch {
        return entry;
      }
      if (own !== undefined && typeof own !== "function") return entry;
      const carrier = Object.create(tool) as CustomTool;
      carrier.onSession = async (event: CustomToolSessionEvent, ctx: CustomToolContext) => {
        runner ??= carrier;
        if (typeof own === "function") await own.call(tool, event, ctx);
        if (runner === carrier) await runHandlers(event, ctx);
      };
      return carrier;
    });
  }

  /** One `W_EXTENSION_FEATURE` per feature the module used that Tooldock does not run. */
  warnings(): Diagnostic[] {
    const module = this.#module;
    return [...this.#ignored].map(([feature, { what, hint }]) =>
      createWarning("W_EXTENSION_FEATURE", {
        message: `${module.path} uses ${feature} (${what}), which a Tooldock host does not have: it was accepted and does nothing here; the extension's tools load without it.`,
        ...module,
        hint: hint ?? DEFAULT_HINT,
      }),
    );
  }
}

/**
 * What a session handler that registered tools the load never had is told: pi adds them to its
 * agent's tools, a Tooldock load's are fixed when it ends.
 */
function lateRegistration(path: string, handler: string, names: string[]): Error {
  const listed = names.map((name) => `"${name}"`).join(", ");
  const them = names.length === 1 ? "it" : "them";
  return new Error(
    `The ${handler} handler of ${path} registered ${listed} with pi.registerTool, after the load ended: ` +
      `a Tooldock load's tools are fixed when it ends, so the model never gets ${them}. ` +
      `Register ${them} in the extension's factory, or register all its tools in session_start ` +
      "(an extension whose factory registers none has its session_start handlers run at load).",
  );
}
