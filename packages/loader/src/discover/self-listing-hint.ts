/**
 * The hint for a package that lists its own folder: the key that listed it (`listedIn`, such as
 * `"pi.extensions"`, `"omp.features.search.tools"` or `"omp.install"`) shown listing a tool file
 * of the package instead, so the fix is written where the mistake was.
 */
export function selfListingHint(field: string, listedIn: string): string {
  const key = listedIn.slice(field.length + 1);
  const example = (value: string) => `List the package's tool files instead, e.g. "${field}": { ${value} }.`;
  if (key === "install")
    return example(`"install": [{ "src": "./index.ts", "dest": "agent/tools/name/index.ts" }]`);
  const feature = /^features\.(.+)\.tools$/s.exec(key)?.[1];
  if (feature !== undefined)
    return example(
      `"features": { ${JSON.stringify(feature)}: { "default": true, "tools": ["./index.ts"] } }`,
    );
  return example(`${JSON.stringify(key)}: ["./index.ts"]`);
}
