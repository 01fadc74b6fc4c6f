import * as z from 'zod/mini';

/**
 * `schema`, or `fallback` when the value is not what it expects: what a gateway may send oddly never fails the
 * answer around it. A union rather than `z.catch`: zod/mini's catch keeps all of zod's utilities (13 KB) in the code
 * every window loads at activation (`npm run bench -- --only startup`).
 */
export function orElse<T extends z.ZodMiniType>(schema: T, fallback: z.output<T>) {
  return z.union([schema, z.transform((): z.output<T> => fallback)]);
}

/** `schema`, or undefined when the value is not what it expects. */
export function orUndefined<T extends z.ZodMiniType>(schema: T) {
  return z.union([schema, z.transform(() => undefined)]);
}
