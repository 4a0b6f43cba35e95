/** Node's permission model as one Node version spells it, or why that runtime has none. */
export type PermissionSupport =
  | { flag: string; warnings: string[]; network: boolean }
  | { unsupported: string };

/**
 * The flag that turns Node's permission model on: `--permission` from Node 22.13 / 23.5,
 * `--experimental-permission` on Node 20.x and 22.0-22.12 (both refuse the other's).
 */
export function permissionSupport(version: string): PermissionSupport {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 11))
    return { unsupported: `Node ${version} has no usable permission model (Node 20.11 or later has)` };
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  // Node 20 and 22 print an ExperimentalWarning on every start; it says nothing to a user.
  const warnings = stable && major >= 24 ? [] : ["--disable-warning=ExperimentalWarning"];
  // Node 25 added the network to the model: refused unless --allow-net.
  return { flag: stable ? "--permission" : "--experimental-permission", warnings, network: major >= 25 };
}

/** What a tool host may do, in absolute paths. */
export interface ToolHostPermissions {
  read: readonly string[];
  write: readonly string[];
  exec: boolean;
  net: boolean;
  memoryMb: number;
}

/** The Node flags of a tool host under `version`. */
export function permissionFlags(version: string, permissions: ToolHostPermissions): string[] {
  const support = permissionSupport(version);
  if ("unsupported" in support) throw new Error(support.unsupported);
  const flags = [support.flag, ...support.warnings];
  for (const path of new Set(permissions.read)) flags.push(`--allow-fs-read=${path}`);
  for (const path of new Set(permissions.write)) flags.push(`--allow-fs-write=${path}`);
  if (permissions.exec) flags.push("--allow-child-process", "--allow-worker");
  if (permissions.net && support.network) flags.push("--allow-net");
  flags.push(`--max-old-space-size=${permissions.memoryMb}`);
  return flags;
}
