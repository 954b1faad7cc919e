/**
 * Sets `target[key] = value` as an own data property. Keys come from data
 * (span attributes, model names), and assigning to `__proto__` would set the
 * prototype instead; every other key is assigned, which keeps the object in
 * V8's fast mode (defining each one, or building with `Object.fromEntries`,
 * cost OTLP ingest measurably).
 */
export function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
