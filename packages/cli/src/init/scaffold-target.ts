import { realpath, statfs } from "node:fs/promises";
import { dirname, sep } from "node:path";
import { UsageError } from "../args/usage-error.js";

/**
 * File systems of the kernel's own (`statfs` magic numbers): a package never belongs there,
 * and writing there is at best an error (`/sys`: EPERM, reported as an internal error) and at
 * worst a hang (`/proc`: Node's recursive mkdir never returned).
 */
const KERNEL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x1cd1, "devpts"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x73636673, "securityfs"],
  [0xcafe4a11, "bpf"],
  [0x62656570, "configfs"],
  [0x6165676c, "pstore"],
  [0x42494e4d, "binfmt_misc"],
]);

/** Folders of device files and kernel state, whatever file system holds them (`/dev` is a tmpfs). */
const KERNEL_FOLDERS = ["/proc", "/sys", "/dev"];

/** The nearest folder of `directory`, itself included, that exists, by its real path. */
async function nearestExisting(directory: string): Promise<string> {
  for (let folder = directory; ; folder = dirname(folder)) {
    try {
      return await realpath(folder);
    } catch {
      if (dirname(folder) === folder) return folder;
    }
  }
}

/**
 * Refuses (a `UsageError`, exit code 2) a scaffold target on a kernel file system (`/proc`,
 * `/sys`, `/dev`, cgroups, …): `tooldock init /proc/x` hung and `init /sys/x` ended in an
 * internal error. On a platform without `statfs` types (Windows) only the folders are checked.
 */
export async function assertScaffoldTarget(directory: string, shown: string): Promise<void> {
  const existing = await nearestExisting(directory);
  const folder = KERNEL_FOLDERS.find((root) => existing === root || existing.startsWith(`${root}${sep}`));
  let fileSystem: string | undefined;
  try {
    fileSystem = KERNEL_FILE_SYSTEMS.get((await statfs(existing)).type);
  } catch {
    fileSystem = undefined; // no statfs here: the folders decide
  }
  if (folder === undefined && fileSystem === undefined) return;
  throw new UsageError(
    `cannot create a package in ${shown}: ${existing} is ${fileSystem === undefined ? `under ${folder}` : `on the kernel's ${fileSystem} file system`}, ` +
      "where files are the kernel's, not yours. Give a folder in your project or your home.",
    "init",
  );
}
