import * as z from 'zod/mini';
import { t } from '../../api/l10n';
import type { IdFactory } from './conversation';
import { imageFromDataUrl } from './images';
import { conversationSchema, type Conversation } from './model';

// A chat as a file: `{ format: 'promptreel.chat', version: 1, exportedAt, conversation }`. The conversation is
// the stored one, images included (as data URLs), so a file read back gives the same chat. A file is input like
// any other: checked with zod, and every problem is said in words the user can act on.

export const CHAT_FILE_FORMAT = 'promptreel.chat';
export const CHAT_FILE_VERSION = 1;

export function cutOffAtExport(): string {
  return t('The reply was still arriving when the chat was exported. What arrived is kept.');
}

const envelopeSchema = z.object({ format: z.optional(z.unknown()), version: z.optional(z.unknown()), conversation: z.optional(z.unknown()) });

export type ChatFileParse = { ok: true; conversation: Conversation } | { ok: false; problem: string };

export function conversationToJson(conversation: Conversation, exportedAt = new Date()): string {
  const file = { format: CHAT_FILE_FORMAT, version: CHAT_FILE_VERSION, exportedAt: exportedAt.toISOString(), conversation };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Reads a chat file; `problem` says what is wrong with it (not JSON, another format or version, a bad field). */
export function parseConversationJson(text: string): ChatFileParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, problem: t('The file is not valid JSON ({0}).', error instanceof Error ? error.message : String(error)) };
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success || envelope.data.format !== CHAT_FILE_FORMAT) {
    return {
      ok: false,
      problem: t(
        'The file is not a Promptreel chat export: its "format" should be "{0}". Export a chat with "Export Chat as JSON…" to get one.',
        CHAT_FILE_FORMAT,
      ),
    };
  }
  const { version } = envelope.data;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    const found = JSON.stringify(version);
    return {
      ok: false,
      problem:
        found === undefined
          ? t('The file\'s "version" (missing) is not a version of the chat format.')
          : t('The file\'s "version" ({0}) is not a version of the chat format.', found),
    };
  }
  if (version > CHAT_FILE_VERSION) {
    return {
      ok: false,
      problem: t(
        'The file was exported by a newer Promptreel (chat format version {0}; this one reads version {1}). Update Promptreel to import it.',
        version,
        CHAT_FILE_VERSION,
      ),
    };
  }
  const conversation = conversationSchema.safeParse(envelope.data.conversation);
  if (!conversation.success) {
    const issue = conversation.error.issues[0];
    return invalid([...(issue?.path ?? [])], issue?.message ?? t('unexpected shape'));
  }
  return checkImages(conversation.data);
}

/** An image goes to the model again with the next message: it must be one Promptreel would have attached itself. */
function checkImages(conversation: Conversation): ChatFileParse {
  for (const [messageIndex, message] of conversation.messages.entries()) {
    if (message.role !== 'user' || !message.images) continue;
    const images = [];
    for (const [imageIndex, image] of message.images.entries()) {
      const checked = imageFromDataUrl(image.name, image.mimeType, image.dataUrl);
      if (typeof checked === 'string') return invalid(['messages', messageIndex, 'images', imageIndex], checked);
      images.push(checked);
    }
    message.images = images;
  }
  return { ok: true, conversation };
}

function invalid(path: PropertyKey[], problem: string): ChatFileParse {
  const where = ['conversation', ...path.map(String)].join('.');
  return { ok: false, problem: t('The chat in the file is not valid: {0}: {1}.', where, problem.replace(/[.。]$/, '')) };
}

/**
 * The chat of a file made ready to join the history: new ids (an import never replaces a chat, even when the same
 * file is imported twice), not pinned, no tool allowed for it yet (a file does not grant permissions), a reply that
 * was still arriving becomes cut off, and it counts as changed now (it is listed on top).
 */
export function importedConversation(conversation: Conversation, now: number, newId: IdFactory): Conversation {
  const { pinned: _pinned, allowedTools: _allowed, ...rest } = conversation;
  return {
    ...rest,
    id: newId(),
    updatedAt: now,
    messages: conversation.messages.map((message) => {
      if (message.role === 'user') return { ...message, id: newId() };
      const toolCalls = message.toolCalls.map((call) => (call.state === 'pending' || call.state === 'running' ? { ...call, state: 'stopped' as const } : call));
      if (message.status !== 'streaming') return { ...message, id: newId(), toolCalls };
      return { ...message, id: newId(), toolCalls, status: 'cut-off' as const, error: { message: cutOffAtExport(), actions: ['retry' as const] } };
    }),
  };
}

/** A file name for the chat (`fix-the-parser.json`): safe characters only, never empty. */
export function chatFileName(title: string, extension: 'md' | 'json'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '')
    .toLowerCase();
  return `${slug || 'chat'}.${extension}`;
}
