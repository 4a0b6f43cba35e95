/** What a tool host may do, in absolute paths. */
export interface ToolHostPermissions {
  read: readonly string[];
  write: readonly string[];
  exec: boolean;
  net: boolean;
  memoryMb: number;
}

/**
 * The Node flags of a tool host under `version`. The permission model's flag is `--permission`
 * from Node 22.13 / 23.5, `--experimental-permission` on Node 20.x and 22.0-22.12 (both refuse
 * the other's); a Node before 20.11 has no usable model: it throws.
 */
export function permissionFlags(version: string, permissions: ToolHostPermissions): string[] {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 11))
    throw new Error(`Node ${version} has no usable permission model (Node 20.11 or later has)`);
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  const flags = [stable ? "--permission" : "--experimental-permission"];
  // Node 20 and 22 print an ExperimentalWarning on every start; it says nothing to a user.
  if (!stable || major < 24) flags.push("--disable-warning=ExperimentalWarning");
  for (const path of new Set(permissions.read)) flags.push(`--allow-fs-read=${path}`);
  for (const path of new Set(permissions.write)) flags.push(`--allow-fs-write=${path}`);
  if (permissions.exec) flags.push("--allow-child-process", "--allow-worker");
  // Node 25 added the network to the model: refused unless --allow-net.
  if (permissions.net && major >= 25) flags.push("--allow-net");
  flags.push(`--max-old-space-size=${permissions.memoryMb}`);
  return flags;
}
