/**
 * Sets `target[key] = value` as an own data property, also for the key `"__proto__"`, where a
 * plain assignment would set the object's prototype instead (a JSON key read by `JSON.parse`
 * is an own property, and a copy must keep it one).
 */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
