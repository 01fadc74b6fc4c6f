/**
 * A value made on its first use, then kept: for module-level schemas and tables that would otherwise be built when
 * the module loads, which for the modules activation loads means in every window, used or not.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
