import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Where util-linux installs `unshare`: absolute paths only, never a lookup through `PATH`. */
const UNSHARE = ["/usr/bin/unshare", "/bin/unshare"];

/**
 * `unshare` flags that put a program in a PID namespace of its own: `--fork` makes it the
 * namespace's first process, and when that process ends the kernel ends every other one in
 * the namespace; `--kill-child` ends it when `unshare` itself is killed. A user namespace
 * lets a user without privileges create one (`--map-current-user` keeps their uid, on
 * util-linux 2.38 and later; `--map-root-user` before); root needs none.
 */
const AS_ROOT = ["--pid", "--fork", "--kill-child"];
const AS_USER = ["--user", "--map-current-user", ...AS_ROOT];
const AS_USER_BEFORE_2_38 = ["--user", "--map-root-user", ...AS_ROOT];

let launcher: readonly string[] | null | undefined;

/**
 * The command prefix (`unshare` and its flags, ending in `--`) that starts a tool host in a
 * PID namespace of its own, so that every process its tools start, detached or not, ends with
 * it; undefined where none can be made (not Linux, no `unshare`, or user namespaces refused:
 * a container's seccomp profile, Ubuntu's AppArmor restriction). Found once per process, by
 * running `true` each way (a few milliseconds).
 */
export function pidNamespaceLauncher(): readonly string[] | undefined {
  if (launcher !== undefined) return launcher ?? undefined;
  launcher = null;
  if (process.platform !== "linux") return undefined;
  const unshare = UNSHARE.find((path) => existsSync(path));
  if (unshare === undefined) return undefined;
  const candidates = process.geteuid?.() === 0 ? [AS_ROOT, AS_USER] : [AS_USER, AS_USER_BEFORE_2_38];
  const options = { stdio: "ignore", timeout: 5_000, env: { PATH: "/usr/bin:/bin" } } as const;
  const flags = candidates.find((each) => spawnSync(unshare, [...each, "--", "true"], options).status === 0);
  if (flags !== undefined) launcher = [unshare, ...flags, "--"];
  return launcher ?? undefined;
}
