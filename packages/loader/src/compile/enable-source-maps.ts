/**
 * Turns on Node's source map support (once) so stack traces from compiled tools name the
 * `.ts` file and line. Process-wide: it is what `node --enable-source-maps` does.
 */
export function enableSourceMaps(): void {
  const setter = (process as { setSourceMapsEnabled?: (enabled: boolean) => void }).setSourceMapsEnabled;
  setter?.call(process, true);
}
