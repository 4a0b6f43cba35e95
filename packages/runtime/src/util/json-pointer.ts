/** One segment of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`. */
export function escapePointerSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
