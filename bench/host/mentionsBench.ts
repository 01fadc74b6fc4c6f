// What the mentions bench's entry (in the extension host) and its driver (in Node) agree on.

export const FILES = 20_000;
export const CONTEXT_FILES = 30;
export const CONTEXT_BYTES = 1024 * 1024;
/** What the driver types after `@`, one character at a time. */
export const QUERIES = ['mod1234', 'pkg17util', 'srcview', 'handler9', 'indexts', 'feat42cfg', 'tests88', 'lib3api'];
