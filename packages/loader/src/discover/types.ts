/** A tool module found by discovery. */
export interface DiscoveredModule {
  /** The path as the user gave it or discovery found it (absolute). */
  path: string;
  /** The real path (symlinks resolved); modules are de-duplicated on it. */
  resolvedPath: string;
}
