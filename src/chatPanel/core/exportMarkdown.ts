import { usageTotals } from './conversation';
import { conversationCost, formatCost } from './replyCost';
import { describeRange, fenceFor } from './contextPrompt';
import type { AssistantMessage, Conversation, ToolCallRecord, UserMessage } from './model';

/** A readable Markdown transcript: options, each turn (with its context, reasoning, tool calls and usage), totals. */
export function conversationToMarkdown(conversation: Conversation, exportedAt = new Date()): string {
  const lines: string[] = [`# ${conversation.title}`, '', `_Exported from Promptreel on ${exportedAt.toISOString()}._`, ''];
  const options = conversation.options;
  const settings = [
    options.model ? `model \`${options.model}\`` : undefined,
    options.temperature !== undefined ? `temperature ${options.temperature}` : undefined,
    options.topP !== undefined ? `top_p ${options.topP}` : undefined,
    options.frequencyPenalty !== undefined ? `frequency_penalty ${options.frequencyPenalty}` : undefined,
    options.presencePenalty !== undefined ? `presence_penalty ${options.presencePenalty}` : undefined,
    options.maxTokens !== undefined ? `max_tokens ${options.maxTokens}` : undefined,
    options.jsonMode ? 'JSON mode' : undefined,
  ].filter(Boolean);
  if (settings.length > 0) lines.push(`Options: ${settings.join(', ')}.`, '');
  if (options.systemPrompt?.trim()) lines.push('**System**', '', quote(options.systemPrompt), '');
  for (const message of conversation.messages) {
    lines.push(...(message.role === 'user' ? userLines(message) : assistantLines(message)), '');
  }
  const total = usageTotals(conversation);
  const cost = conversationCost(conversation);
  if (total.totalTokens > 0 || cost) lines.push('---', '');
  if (total.totalTokens > 0) lines.push(`Total usage: ${total.promptTokens} prompt + ${total.completionTokens} completion = ${total.totalTokens} tokens.`, '');
  if (cost) lines.push(`Total cost: ${formatCost(cost)}.`, '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function userLines(message: UserMessage): string[] {
  const lines = ['## You', ''];
  if (message.context) {
    const fence = fenceFor(message.context.code);
    lines.push(`Context: ${describeRange(message.context)}`, '', `${fence}${message.context.languageId}`, message.context.code, fence, '');
    for (const diagnostic of message.context.diagnostics) lines.push(`- line ${diagnostic.line}, ${diagnostic.severity}: ${diagnostic.message}`);
    if (message.context.diagnostics.length > 0) lines.push('');
  }
  for (const image of message.images ?? []) lines.push(`_Image attached: ${image.name}_`, '');
  lines.push(message.text);
  return lines;
}

function assistantLines(message: AssistantMessage): string[] {
  const lines = [`## Assistant (${message.model})`, ''];
  if (message.reasoning.trim()) lines.push('<details><summary>Reasoning</summary>', '', message.reasoning.trim(), '', '</details>', '');
  if (message.text) lines.push(message.text);
  for (const call of message.toolCalls) lines.push(...toolCallLines(call));
  if (message.status !== 'done') lines.push('', `_${statusNote(message)}_`);
  if (message.usage)
    lines.push('', `_Usage: ${message.usage.promptTokens} prompt + ${message.usage.completionTokens} completion = ${message.usage.totalTokens} tokens._`);
  if (message.cost) lines.push('', `_Cost: ${formatCost(message.cost)}._`);
  return lines;
}

const TOOL_STATES: Record<NonNullable<ToolCallRecord['state']>, string> = {
  pending: 'waiting for approval',
  running: 'running',
  done: 'done',
  denied: 'denied',
  failed: 'failed',
  stopped: 'stopped',
};

/** A tool call with its arguments and, once run, its state and result (folded, fenced so nothing in it breaks out). */
function toolCallLines(call: ToolCallRecord): string[] {
  const state = call.state ? ` (${TOOL_STATES[call.state]})` : '';
  const lines = ['', `Tool call \`${call.name}\`${state}:`, '', '```json', call.arguments, '```'];
  if (call.result === undefined) return lines;
  const fence = fenceFor(call.result);
  return [...lines, '', '<details><summary>Result</summary>', '', `${fence}text`, call.result, fence, '', '</details>'];
}

function statusNote(message: AssistantMessage): string {
  switch (message.status) {
    case 'stopped':
      return 'Stopped before the reply was complete.';
    case 'cut-off':
      return `Cut off: ${message.error?.message ?? 'the reply is incomplete.'}`;
    case 'error':
      return `Failed: ${message.error?.message ?? 'unknown error.'}`;
    default:
      return 'Still arriving when exported.';
  }
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
