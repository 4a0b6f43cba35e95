/**
 * Turns on Node's source map support so stack traces from compiled tools name the `.ts` file
 * and line (bundles link their map from `<cacheDir>/maps/`). Process-wide: it is what
 * `node --enable-source-maps` does, so from then on Node also reads the maps of the host's
 * own modules and maps every stack trace it formats. Modules imported while it is off are
 * never mapped, so call it before the first tool is imported.
 */
export function enableSourceMaps(): void {
  const setter = (process as { setSourceMapsEnabled?: (enabled: boolean) => void }).setSourceMapsEnabled;
  setter?.call(process, true);
}
