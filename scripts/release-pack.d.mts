/** A package.json, as far as release-pack and its tests read it. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  license?: string;
  files?: string[];
  engines?: Record<string, string>;
  publishConfig?: Record<string, string>;
  repository?: { type: string; url: string; directory?: string };
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [field: string]: unknown;
}
/** A package under packages/. */
export interface WorkspacePackage {
  name: string;
  version: string;
  directory: string;
  manifest: Manifest;
}
export function workspacePackages(): Promise<WorkspacePackage[]>;
export function publishedRange(spec: string, version: string): string;
export function rewriteWorkspaceRanges(manifest: Manifest, versions: Map<string, string>): Manifest;
export function releasePack(
  outDir: string,
): Promise<Array<{ name: string; version: string; tarball: string }>>;
