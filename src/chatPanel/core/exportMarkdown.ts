import { t } from '../../api/l10n';
import { usageTotals } from './conversation';
import { conversationCost, formatCost } from './replyCost';
import { fenceFor } from './contextPrompt';
import type { AssistantMessage, Conversation, DiagnosticSeverity, SelectionContext, ToolCallRecord, ToolCallState, UserMessage } from './model';

/** A readable Markdown transcript: options, each turn (with its context, reasoning, tool calls and usage), totals. */
export function conversationToMarkdown(conversation: Conversation, exportedAt = new Date()): string {
  const lines: string[] = [`# ${conversation.title}`, '', `_${t('Exported from Promptreel on {0}.', exportedAt.toISOString())}_`, ''];
  const options = conversation.options;
  const settings = [
    options.model ? `model \`${options.model}\`` : undefined,
    options.temperature !== undefined ? `temperature ${options.temperature}` : undefined,
    options.topP !== undefined ? `top_p ${options.topP}` : undefined,
    options.frequencyPenalty !== undefined ? `frequency_penalty ${options.frequencyPenalty}` : undefined,
    options.presencePenalty !== undefined ? `presence_penalty ${options.presencePenalty}` : undefined,
    options.maxTokens !== undefined ? `max_tokens ${options.maxTokens}` : undefined,
    options.jsonMode ? t('JSON mode') : undefined,
  ].filter(Boolean);
  if (settings.length > 0) lines.push(t('Options: {0}.', settings.join(', ')), '');
  if (options.systemPrompt?.trim()) lines.push(`**${t('System')}**`, '', quote(options.systemPrompt), '');
  for (const message of conversation.messages) {
    lines.push(...(message.role === 'user' ? userLines(message) : assistantLines(message)), '');
  }
  const total = usageTotals(conversation);
  const cost = conversationCost(conversation);
  if (total.totalTokens > 0 || cost) lines.push('---', '');
  if (total.totalTokens > 0)
    lines.push(t('Total usage: {0} prompt + {1} completion = {2} tokens.', total.promptTokens, total.completionTokens, total.totalTokens), '');
  if (cost) lines.push(t('Total cost: {0}.', formatCost(cost)), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function userLines(message: UserMessage): string[] {
  const lines = [`## ${t('You')}`, ''];
  if (message.context) {
    const fence = fenceFor(message.context.code);
    lines.push(t('Context: {0}', rangeText(message.context)), '', `${fence}${message.context.languageId}`, message.context.code, fence, '');
    for (const diagnostic of message.context.diagnostics)
      lines.push(`- ${t('line {0}, {1}: {2}', diagnostic.line, severityText(diagnostic.severity), diagnostic.message)}`);
    if (message.context.diagnostics.length > 0) lines.push('');
  }
  for (const image of message.images ?? []) lines.push(`_${t('Image attached: {0}', image.name)}_`, '');
  lines.push(message.text);
  return lines;
}

function assistantLines(message: AssistantMessage): string[] {
  const lines = [`## ${t('Assistant ({0})', message.model)}`, ''];
  if (message.reasoning.trim()) lines.push(`<details><summary>${t('Reasoning')}</summary>`, '', message.reasoning.trim(), '', '</details>', '');
  if (message.text) lines.push(message.text);
  for (const call of message.toolCalls) lines.push(...toolCallLines(call));
  if (message.status !== 'done') lines.push('', `_${statusNote(message)}_`);
  if (message.usage)
    lines.push(
      '',
      `_${t('Usage: {0} prompt + {1} completion = {2} tokens.', message.usage.promptTokens, message.usage.completionTokens, message.usage.totalTokens)}_`,
    );
  if (message.cost) lines.push('', `_${t('Cost: {0}.', formatCost(message.cost))}_`);
  return lines;
}

/** "src/app.ts, lines 3-7" (or "line 3"), in the reader's language (the model reads `describeRange`). */
function rangeText(context: SelectionContext): string {
  return context.startLine === context.endLine
    ? t('{0}, line {1}', context.relativePath, context.startLine)
    : t('{0}, lines {1}-{2}', context.relativePath, context.startLine, context.endLine);
}

function severityText(severity: DiagnosticSeverity): string {
  return { error: t('error'), warning: t('warning'), info: t('info'), hint: t('hint') }[severity];
}

function toolStateText(state: ToolCallState): string {
  const states: Record<ToolCallState, string> = {
    pending: t('waiting for approval'),
    running: t('running'),
    done: t('done'),
    denied: t('denied'),
    failed: t('failed'),
    stopped: t('stopped'),
  };
  return states[state];
}

/** A tool call with its arguments and, once run, its state and result (folded, fenced so nothing in it breaks out). */
function toolCallLines(call: ToolCallRecord): string[] {
  const heading = call.state ? t('Tool call `{0}` ({1}):', call.name, toolStateText(call.state)) : t('Tool call `{0}`:', call.name);
  const lines = ['', heading, '', '```json', call.arguments, '```'];
  if (call.result === undefined) return lines;
  const fence = fenceFor(call.result);
  return [...lines, '', `<details><summary>${t('Result')}</summary>`, '', `${fence}text`, call.result, fence, '', '</details>'];
}

function statusNote(message: AssistantMessage): string {
  switch (message.status) {
    case 'stopped':
      return t('Stopped before the reply was complete.');
    case 'cut-off':
      return message.error ? t('Cut off: {0}', message.error.message) : t('Cut off: the reply is incomplete.');
    case 'error':
      return message.error ? t('Failed: {0}', message.error.message) : t('Failed: unknown error.');
    default:
      return t('Still arriving when exported.');
  }
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
