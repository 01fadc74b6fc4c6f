import type { Mention, QuickAction, SelectionContext } from './model';

export const QUICK_ACTIONS: readonly { action: QuickAction; label: string; prompt: string }[] = [
  { action: 'explain', label: 'Explain', prompt: 'Explain what this code does, step by step.' },
  { action: 'findBugs', label: 'Find Bugs', prompt: 'Find bugs and risky spots in this code, and show how to fix each one.' },
  { action: 'writeTests', label: 'Write Tests', prompt: 'Write unit tests for this code, covering the edge cases.' },
  { action: 'document', label: 'Document', prompt: 'Write documentation comments for this code.' },
];

export const EXPLAIN_ERROR_PROMPT = 'Explain this error and how to fix it.';

export function quickActionPrompt(action: QuickAction, context?: SelectionContext): string {
  if (action === 'explain' && context?.diagnostics.some((d) => d.severity === 'error')) return EXPLAIN_ERROR_PROMPT;
  return QUICK_ACTIONS.find((entry) => entry.action === action)?.prompt ?? '';
}

/** "src/app.ts, lines 3-7" (or "line 3"). */
export function describeRange(context: SelectionContext): string {
  const lines = context.startLine === context.endLine ? `line ${context.startLine}` : `lines ${context.startLine}-${context.endLine}`;
  return `${context.relativePath}, ${lines}`;
}

/** A fence longer than any backtick run inside the code, so the code cannot close it early. */
export function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The selection as the model reads it: where it is, the language, the code, and the problems in it. */
export function renderContext(context: SelectionContext): string {
  const fence = fenceFor(context.code);
  const parts = [`Code from ${describeRange(context)} (${context.languageId}):`, '', `${fence}${context.languageId}`, context.code, fence];
  if (context.diagnostics.length > 0) {
    parts.push('', 'Problems VS Code reports in this code:');
    for (const diagnostic of context.diagnostics) {
      const origin = [diagnostic.source, diagnostic.code].filter(Boolean).join(' ');
      parts.push(`- line ${diagnostic.line}, ${diagnostic.severity}${origin ? ` (${origin})` : ''}: ${diagnostic.message}`);
    }
  }
  return parts.join('\n');
}

/** What heads a mention's text for the model: its label and detail, or its English heading when they are translated. */
export function mentionHeading(mention: Pick<Mention, 'label' | 'detail' | 'heading'>): string {
  return mention.heading ?? `${mention.label}${mention.detail ? ` (${mention.detail})` : ''}`;
}

/** A mention as the model reads it: what it is, then its text in a fence the text cannot close. */
export function renderMention(mention: Mention): string {
  const fence = fenceFor(mention.content);
  const cut = mention.trimmedFrom !== undefined ? ` (cut to fit the context window: ${mention.tokens} of ${mention.trimmedFrom} tokens)` : '';
  return [`${mentionHeading(mention)}${cut}:`, '', fence, mention.content, fence].join('\n');
}

/** The text of a user turn as sent: the mentions and the selection (when there are) followed by what the user wrote. */
export function userPromptText(text: string, context?: SelectionContext, mentions: readonly Mention[] = []): string {
  const parts = [...mentions.map(renderMention), ...(context ? [renderContext(context)] : [])];
  if (text.trim()) parts.push(text);
  return parts.length ? parts.join('\n\n') : text;
}
