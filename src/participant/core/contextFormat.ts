// Plain text building for the `@promptreel` participant: no `vscode` here, so it is unit-tested in Node.

import type { ContextItem } from '../../workbench/core/contextItem';

/** A piece of code or text the user gave as context: the editor selection, or a #file / #selection reference. */
export type { ContextItem };

/** Leaves out items another item already contains (e.g. the selection when its file is attached too). */
export function withoutDuplicates(items: readonly ContextItem[]): ContextItem[] {
  return items.filter(
    (item, index) => !items.some((other, otherIndex) => otherIndex !== index && contains(other, item) && (!contains(item, other) || otherIndex < index)),
  );
}

function contains(outer: ContextItem, inner: ContextItem): boolean {
  if (!outer.source || !inner.source || outer.source.uri !== inner.source.uri) return false;
  if (!outer.source.lines) return true;
  if (!inner.source.lines) return false;
  return outer.source.lines.start <= inner.source.lines.start && inner.source.lines.end <= outer.source.lines.end;
}

/** The most context one request carries; beyond it each item is cut (models have finite windows). */
export const MAX_CONTEXT_CHARS = 48_000;

export const SYSTEM_PROMPT = [
  'You are Promptreel, an assistant inside Visual Studio Code.',
  'Answer in GitHub-flavored Markdown; put code in fenced code blocks with a language.',
  'When the user attached code or files, use them; say so when they do not contain what is needed.',
].join(' ');

/** The context items as Markdown fences under their labels, within MAX_CONTEXT_CHARS in all. */
export function formatContext(items: readonly ContextItem[]): string {
  let budget = MAX_CONTEXT_CHARS;
  const blocks: string[] = [];
  for (const item of items) {
    if (budget <= 0) break;
    const cut = item.text.length > budget;
    const text = cut ? `${item.text.slice(0, budget)}\n… (cut: ${item.text.length - budget} more characters)` : item.text;
    budget -= Math.min(item.text.length, budget);
    blocks.push(`${item.label}:\n${fenced(text, item.languageId)}`);
  }
  return blocks.join('\n\n');
}

/** A fence longer than any backtick run inside the text, so the text cannot close it. */
export function fenced(text: string, languageId = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${languageId}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** The user turn of a default request: the question, then what the user attached. */
export function questionWithContext(prompt: string, items: readonly ContextItem[]): string {
  if (items.length === 0) return prompt;
  return `${prompt}\n\nContext:\n\n${formatContext(items)}`;
}

/** The user turn of `/explain`: what to explain, then the user's own words about it, if any. */
export function explainRequest(items: readonly ContextItem[], prompt: string): string {
  const what = items.length === 1 ? 'this code' : 'this code (in several parts)';
  const extra = prompt.trim() ? `\n\nIn particular: ${prompt.trim()}` : '';
  return `Explain ${what}: what it does, how it works step by step, and anything surprising or risky in it.${extra}\n\n${formatContext(items)}`;
}
