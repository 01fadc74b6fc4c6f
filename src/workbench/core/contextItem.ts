/** A piece of a chat turn's context as text: a selection, a referenced file or range, text the user attached. */
export interface ContextItem {
  /** e.g. `src/sample.ts:3-5`. */
  label: string;
  languageId?: string;
  text: string;
  /** Where it comes from: a whole document (no lines) or some of its lines (0-based, inclusive). */
  source?: { uri: string; lines?: { start: number; end: number } };
}
