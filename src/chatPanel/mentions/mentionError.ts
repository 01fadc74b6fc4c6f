/** A mention that cannot be added, with the words the composer shows. */
export class MentionError extends Error {}
