import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { describeError } from "@tooldock/runtime/internal";
import { type AgentToolResult, errorResult } from "@tooldock/sdk";
import { MAX_LINE_BYTES, MESSAGE_MARK, readLines, writeLine } from "./line-channel.js";
import { permissionFlags, type ToolHostPermissions } from "./permission-flags.js";
import { pidNamespaceLauncher } from "./process-tree.js";
import { type ChildMessage, type HostMessage, type InitMessage, parseChildMessage } from "./protocol.js";
import { sentence } from "./sentence.js";

/** Kept of a tool host's stderr, to say why it stopped. */
const STDERR_TAIL_CHARS = 8_192;
/**
 * Most characters of output one tool host forwards to `isolation.onOutput` in a minute
 * ({@link OUTPUT_WINDOW_MS}); past it, one notice ({@link OUTPUT_TRUNCATED}) and nothing more
 * until the minute ends: a module that prints without end must not make the host pass all of
 * it on, and a server's chatty module still has its logs a week later.
 */
export const MAX_OUTPUT_CHARS = 1_000_000;
export const OUTPUT_WINDOW_MS = 60_000;
export const OUTPUT_TRUNCATED = `\n… [truncated: this tool host printed more than ${MAX_OUTPUT_CHARS} characters in a minute; what it prints is dropped until the minute ends]\n`;
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/;

/**
 * The tool host's entry. Run from `dist/` (a library user, the CLI's bundle): the one-file
 * bundle beside this module when there is one (`pnpm build` writes it; it starts in half the
 * time), else `./child/tool-host-child.js` (tsc's output, or the CLI bundle's own entry).
 * Under vitest this module runs from `src/`, where only the TypeScript exists: the loader's
 * `dist/` child from tsc then, which `tsc -b` keeps current while the bundle may lag behind.
 */
function childScript(): string {
  const fromSources = import.meta.url.endsWith(".ts");
  const base = fromSources ? "../../dist/isolation/child/" : "./child/";
  const bundle = fileURLToPath(new URL(`${base}tool-host-child.bundle.mjs`, import.meta.url));
  if (!fromSources && existsSync(bundle)) return bundle;
  return fileURLToPath(new URL(`${base}tool-host-child.js`, import.meta.url));
}

/** Why a tool host stopped, for the results and events that say so. */
export interface ToolHostStop {
  /** What happened, as a sentence ending in a period. */
  reason: string;
  kind: "crash" | "exit" | "out-of-memory" | "hang" | "protocol" | "closed" | "start";
}

/** How to start a tool host. */
export interface ToolHostSpawn {
  execPath: string;
  nodeVersion: string;
  cwd: string;
  env: Record<string, string>;
  permissions: ToolHostPermissions;
  /** After a call is stopped, how long the tool host has to show it is still responsive. */
  hangTimeoutMs: number;
}

/** A request waiting for its reply; `held` while it keeps the host's event loop alive. */
type Reply = { resolve(message: ChildMessage | ToolHostStop): void; held: boolean; timer?: NodeJS.Timeout };

/** What `forget` resolves a withdrawn request with. */
const WITHDRAWN: ToolHostStop = { kind: "closed", reason: "The request was withdrawn." };

/**
 * One tool host: a child Node process under the permission model, talking newline JSON on
 * its stdin and stdout, each line it sends marked (what its tools print goes to its stderr;
 * what they write to descriptor 1 themselves is told apart by the mark and is output too). Requests (calls, applies,
 * hooks, pings) get numbered replies; the child's other messages go to `onMessage`. The
 * process is in its own group, killed as a whole when it stops; one whose tools may start
 * processes also runs in a PID namespace where Linux allows ({@link pidNamespaceLauncher}),
 * so that what they detach from the group ends with it too. It keeps the host's event
 * loop alive only while it loads, while a request waits, and while it is being killed.
 */
export class ToolHostProcess {
  readonly #child: ChildProcess;
  readonly #input: Socket;
  readonly #output: Socket;
  readonly #replies = new Map<number, Reply>();
  readonly #stopListeners: Array<(stop: ToolHostStop) => void> = [];
  readonly #hangTimeoutMs: number;
  readonly #keeper = setInterval(() => {}, 2_147_483_647).unref();
  #holds = 0;
  #nextId = 1;
  #stderr = "";
  /** How many more characters of output `onOutput` gets until `#outputWindowEnds`; below 0 once the notice went. */
  #outputLeft = MAX_OUTPUT_CHARS;
  #outputWindowEnds = 0;
  #stopping: ToolHostStop | undefined;
  #stopped: ToolHostStop | undefined;
  #loaded = false;
  #begun = false;
  onMessage: (message: ChildMessage) => void = () => {};
  /** What the process prints, as it arrives (`isolation.onOutput`): its stderr, and unmarked bytes on its stdout. */
  onOutput: (text: string) => void = () => {};

  constructor(options: ToolHostSpawn) {
    this.#hangTimeoutMs = options.hangTimeoutMs;
    const command = [
      options.execPath,
      ...permissionFlags(options.nodeVersion, options.permissions),
      childScript(),
    ];
    // Tools that may start processes can detach them from the group: a PID namespace (Linux)
    // ends them all with the tool host. Without exec the permission model starts none.
    const launcher = options.permissions.exec ? pidNamespaceLauncher() : undefined;
    if (launcher !== undefined) command.unshift(...launcher);
    this.#child = spawn(command[0] as string, command.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      // stdin carries the host's messages, stdout the tool host's: the permission model of
      // Node 25+ refuses a socket the child would open on another descriptor (Net), never
      // its own standard streams.
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#input = this.#child.stdin as Socket;
    this.#output = this.#child.stdout as Socket;
    this.#child.on("error", (error) => {
      this.#stopping ??= startFailure(error);
      // A process that never started sends no "exit".
      if (this.#child.pid === undefined) this.#exited(null, null);
    });
    this.#child.stderr?.setEncoding("utf8").on("data", (chunk: string) => this.#printed(chunk));
    this.#child.on("exit", (code, signal) => this.#exited(code, signal));
    for (const stream of [this.#input, this.#output, this.#child.stderr as Socket]) {
      stream.on("error", () => {
        // The child is gone; its exit says how.
      });
      // Bun's child streams have no unref: there the child process's own unref is enough.
      (stream as Partial<Socket>).unref?.();
    }
    this.#child.unref();
    readLines(this.#output, MAX_LINE_BYTES, {
      line: (text, continued) => this.#receive(text, continued),
      loose: (text) => {
        if (!this.stopped) this.#printed(text);
      },
      overflow: () => this.breach(`It sent a message longer than ${MAX_LINE_BYTES} bytes.`),
    });
  }

  /** Gives the process its load (once); it is held until it reports its tools. */
  begin(init: InitMessage | Promise<InitMessage>): void {
    if (this.#begun) throw new Error("This tool host has its load already.");
    this.#begun = true;
    // Held until it reports its tools: a host awaiting the load keeps its loop running.
    this.#hold();
    void Promise.resolve(init).then((message) => this.send(message));
  }

  /** Resolves `true` once the process runs and answers, `false` if it stopped first. */
  async ready(): Promise<boolean> {
    const reply = await this.request((id) => ({ t: "ping", id })).reply;
    return "t" in reply && reply.t === "pong";
  }

  /** Whether the process has stopped (or is being stopped). */
  get stopped(): boolean {
    return this.#stopping !== undefined || this.#stopped !== undefined;
  }

  /** Whether the process has exited (and every listener of its stop has run). */
  get exited(): boolean {
    return this.#stopped !== undefined;
  }

  /** The process id, while it runs (in a PID namespace, of `unshare`, whose death ends it). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Sends a message that expects no reply. */
  send(message: HostMessage): void {
    if (!this.stopped) writeLine(this.#input, JSON.stringify(message));
  }

  /**
   * Sends a request and resolves with its reply (`result` or `error`), the stop that ended
   * it, or {@link WITHDRAWN} once {@link forget} gave it up. Never rejects. It keeps the host
   * alive until the reply, or at most `keepAliveMs` (a waiter with a deadline of its own).
   */
  request(
    build: (id: number) => HostMessage,
    options: { keepAliveMs?: number } = {},
  ): { id: number; reply: Promise<ChildMessage | ToolHostStop> } {
    const id = this.#nextId++;
    if (this.stopped)
      return { id, reply: Promise.resolve(this.#stopping ?? (this.#stopped as ToolHostStop)) };
    const reply = new Promise<ChildMessage | ToolHostStop>((resolve) => {
      const entry: Reply = { resolve, held: true };
      this.#replies.set(id, entry);
      this.#hold();
      if (options.keepAliveMs !== undefined) {
        entry.timer = setTimeout(() => this.#letGo(entry), options.keepAliveMs).unref();
      }
    });
    this.send(build(id));
    return { id, reply };
  }

  /**
   * Checks the process still answers within the hang timeout; stops it otherwise. With
   * `afterMs`, it answers once its own timers have run that long; resolves whether it did.
   */
  probe(what = "a call was stopped", afterMs?: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    const { reply } = this.request((id) => ({ t: "ping", id, afterMs })); // JSON drops an undefined afterMs
    const hang = `It did not answer for ${this.#hangTimeoutMs} ms after ${what} (a busy loop?).`;
    const timer = setTimeout(
      () => this.kill({ kind: "hang", reason: hang }),
      (afterMs ?? 0) + this.#hangTimeoutMs,
    ).unref();
    return reply.then((answer) => {
      clearTimeout(timer);
      return "t" in answer && answer.t === "pong";
    });
  }

  /** Calls `listener` once when the process has stopped. */
  onStop(listener: (stop: ToolHostStop) => void): void {
    if (this.#stopped !== undefined) listener(this.#stopped);
    else this.#stopListeners.push(listener);
  }

  /** Ends the process group at once; resolves once the process has exited. */
  kill(stop: ToolHostStop): Promise<void> {
    if (this.#stopped !== undefined) return Promise.resolve();
    this.#stopping ??= stop;
    this.#hold(); // until it has exited: a host awaiting this must not see its loop run empty
    killGroup(this.#child.pid);
    return new Promise((resolve) => this.onStop(() => resolve()));
  }

  /** Stops the process for breaking the protocol (`reason` says how). */
  breach(reason: string): void {
    void this.kill({ kind: "protocol", reason });
  }

  /**
   * What the tool host printed: its stderr, and what its modules wrote to its stdout themselves.
   * `onOutput` gets the first {@link MAX_OUTPUT_CHARS} of each minute and a notice; the tail is
   * kept anyway.
   */
  #printed(chunk: string): void {
    this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS);
    const now = performance.now(); // not the wall clock, which a host's clock may step back
    if (now >= this.#outputWindowEnds) {
      this.#outputWindowEnds = now + OUTPUT_WINDOW_MS;
      this.#outputLeft = MAX_OUTPUT_CHARS;
    }
    if (this.#outputLeft < 0) return;
    let text = chunk;
    if (chunk.length <= this.#outputLeft) this.#outputLeft -= chunk.length;
    else {
      // Not between the two halves of a surrogate pair.
      const end = this.#outputLeft - (/[\uD800-\uDBFF]/.test(chunk[this.#outputLeft - 1] ?? "") ? 1 : 0);
      text = chunk.slice(0, end) + OUTPUT_TRUNCATED;
      this.#outputLeft = -1;
    }
    try {
      this.onOutput(text);
    } catch {
      // The host's listener's fault is its own.
    }
  }

  /** A line of the tool host's stdout; `continued` when its start was printed already. */
  #receive(line: string, continued: boolean): void {
    if (this.stopped) return;
    // Bytes a module wrote to descriptor 1 make a line without the mark, or come before it: the
    // last one, since a message never holds one (JSON escapes U+001E). Text of a module's own
    // with a mark in it, and no message after, is output too; a marked line alone must parse.
    const mark = line.lastIndexOf(MESSAGE_MARK);
    const parsed = mark === -1 ? undefined : parseChildMessage(line.slice(mark + 1));
    if (parsed === undefined || ((mark > 0 || continued) && !parsed.ok)) {
      this.#printed(`${line}\n`);
      return;
    }
    if (mark > 0) this.#printed(line.slice(0, mark));
    if (!parsed.ok) {
      this.breach(`It broke the protocol: ${parsed.reason}.`);
      return;
    }
    const message = parsed.value;
    // A reply to a request given up (a stopped call) is dropped.
    if (message.t === "result" || message.t === "error" || message.t === "pong") {
      this.#answer(message.id, message);
      return;
    }
    if (message.t === "loaded" && this.#begun && !this.#loaded) {
      this.#loaded = true;
      this.#release();
    }
    this.onMessage(message);
  }

  /** Gives a request up: it resolves with {@link WITHDRAWN} now, and its reply is dropped. */
  forget(id: number): void {
    this.#answer(id, WITHDRAWN);
  }

  #answer(id: number, answer: ChildMessage | ToolHostStop): void {
    const reply = this.#replies.get(id);
    if (reply === undefined) return;
    this.#replies.delete(id);
    this.#letGo(reply);
    reply.resolve(answer);
  }

  #letGo(reply: Reply): void {
    clearTimeout(reply.timer);
    if (!reply.held) return;
    reply.held = false;
    this.#release();
  }

  #exited(code: number | null, signal: NodeJS.Signals | null): void {
    killGroup(this.#child.pid); // what tools started in the group ends with it
    const stop =
      this.#stopping ??
      (OUT_OF_MEMORY.test(this.#stderr)
        ? {
            kind: "out-of-memory" as const,
            reason: "It ran out of memory (its heap is capped: isolation.memoryMb).",
          }
        : signal !== null
          ? { kind: "crash" as const, reason: `It was killed by ${signal}.` }
          : { kind: "exit" as const, reason: `It exited with code ${code}.` });
    this.#stopped = stop;
    clearInterval(this.#keeper);
    for (const reply of this.#replies.values()) clearTimeout(reply.timer);
    this.#input.destroy();
    this.#output.destroy();
    for (const reply of this.#replies.values()) reply.resolve(stop);
    this.#replies.clear();
    for (const listener of this.#stopListeners.splice(0)) listener(stop);
  }

  /** The tail of what the process wrote to stderr (its crash report, if any). */
  get stderr(): string {
    return this.#stderr;
  }

  /**
   * The process and its pipes never keep the host's event loop alive by themselves; a timer
   * does while something holds it (a timer's ref is a flag: toggling the handles' own refs
   * on every request cost ~200 us a call).
   */
  #hold(): void {
    this.#holds += 1;
    if (this.#holds === 1) this.#keeper.ref();
  }

  #release(): void {
    this.#holds -= 1;
    if (this.#holds === 0) this.#keeper.unref();
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is gone.
  }
}

/** The stop of a tool host that could not start because `error` was thrown, whatever it is. */
function startFailure(error: unknown): ToolHostStop {
  return { kind: "start", reason: `It could not start: ${sentence(describeError(error))}` };
}

/**
 * Why a start (see `loadIsolated`) failed, from what it rejected with: the stop of a tool host
 * that stopped before it reported its tools, or else a {@link startFailure} of what was thrown.
 */
export function failedStart(error: unknown): { stop: ToolHostStop; stderr: string } {
  const failure = (typeof error === "object" && error !== null ? error : {}) as {
    stop?: ToolHostStop;
    stderr?: string;
  };
  return { stop: failure.stop ?? startFailure(error), stderr: failure.stderr ?? "" };
}

/**
 * `stop`'s reason and the last lines its tool host printed, which say why it stopped, but
 * after running out of memory: V8's own backtrace then, which says nothing to the module's author.
 */
export function withPrinted(stop: ToolHostStop, stderr: string): string {
  const tail = stop.kind === "out-of-memory" ? "" : stderr.trim().split("\n").slice(-5).join("\n");
  return tail === "" ? stop.reason : `${stop.reason}\n${tail}`;
}

/** The result a call gets when its tool host stopped. */
export function stoppedResult(toolName: string, stop: ToolHostStop): AgentToolResult {
  // Closed by the host (a reload, the end of the session, the call stopped): no fault of the tool's.
  const advice =
    stop.kind === "closed"
      ? "The host stopped it on purpose; this is no fault of the tool's."
      : stop.kind === "start"
        ? "The host could not start a tool host: neither the tool nor your call is at fault; tell the user."
        : "This is a fault in the tool, not in your call; tell the user.";
  return errorResult(
    `Tool "${toolName}" could not finish: its tool host (the sandboxed process that runs it) stopped. ${stop.reason} ${advice}`,
  );
}
