import { PromisePrototypeThen, SafeSetImmediate, safePromise } from "../guards/primordials.js";
import type { DiscoveryFileSystem } from "./file-system.js";

/**
 * Keeps streamed discovery from running while a tool module's code runs. Discovery goes on
 * while the modules found so far load; a module that replaces a built-in during its top-level
 * await (`Array.prototype.push`) and puts it back before its step ends leaves no trace for the
 * built-ins check, yet discovery code resumed in between would call the replacement (and
 * stop, or skip modules). So each discovery step that waits for the file system (or for its
 * pacing turn) resumes only while the gate is open: {@link DiscoveryGate.close} before a
 * module's code runs, {@link DiscoveryGate.open} once its step has ended and the guards put
 * back what it changed.
 */
export class DiscoveryGate {
  #closed = false;
  #held: Array<() => void> = [];
  /** Whether {@link open} let discovery steps go since the last {@link close}. */
  #released = false;

  /** Settles like `promise`, but only while the gate is open. */
  hold<T>(promise: Promise<T>): Promise<T> {
    return safePromise<T>((resolve, reject) => {
      PromisePrototypeThen(
        promise,
        (value) => this.#when(() => resolve(value)),
        (error) => this.#when(() => reject(error)),
      );
    });
  }

  /**
   * Holds discovery from now on. Waits first for one turn of the event loop when discovery
   * steps were let go since the last close, so they run to their next wait before tool code
   * does; otherwise the gate is shut at once and nothing is returned (no promise to await).
   */
  close(): Promise<void> | undefined {
    const released = this.#released;
    this.#released = false;
    if (!released) {
      this.#closed = true;
      return undefined;
    }
    return safePromise<void>((resolve) => {
      SafeSetImmediate(() => {
        this.#closed = true;
        resolve();
      });
    });
  }

  /** Lets discovery go on, the held steps first, in the order they were held. */
  open(): void {
    this.#closed = false;
    const held = this.#held;
    this.#held = [];
    if (held.length > 0) this.#released = true;
    for (let index = 0; index < held.length; index++) (held[index] as () => void)();
  }

  /** `fileSystem` with each asynchronous call held by this gate (the synchronous ones run in discovery's own steps). */
  fileSystem(fileSystem: DiscoveryFileSystem): DiscoveryFileSystem {
    const gated: DiscoveryFileSystem = {
      stat: (path) => this.hold(fileSystem.stat(path)),
      statIfExists: (path) => fileSystem.statIfExists(path),
      realpath: (path) => fileSystem.realpath(path),
      readdir: (path) => this.hold(fileSystem.readdir(path)),
      readFile: (path) => this.hold(fileSystem.readFile(path)),
    };
    const lstatIfExists = fileSystem.lstatIfExists;
    if (lstatIfExists !== undefined) gated.lstatIfExists = (path) => lstatIfExists.call(fileSystem, path);
    return gated;
  }

  #when(step: () => void): void {
    if (!this.#closed) {
      this.#released = true;
      step();
      return;
    }
    this.#held[this.#held.length] = step;
  }
}
