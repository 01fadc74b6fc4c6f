import type { ChatMessage } from '../../api/chat/request';
import { ParticipantCommands } from '../../common/contributions';

/** One earlier turn of the chat with `@promptreel`, as plain data. */
export interface PastTurn {
  role: 'user' | 'assistant';
  text: string;
  command?: string;
  /** An answer that ended in an error: it and its question are left out. */
  failed?: boolean;
}

/** Earlier turns beyond this many are left out (the newest are kept). */
export const MAX_HISTORY_TURNS = 20;

export interface ConversationInput {
  history: readonly PastTurn[];
  /** The new user turn, context included. */
  user: string;
}

/**
 * The messages of one participant request after its instructions: the recent conversation (video turns left out:
 * they are task reports, not conversation), then the new user turn.
 */
export function buildConversation(input: ConversationInput): ChatMessage[] {
  const past = withoutFailedExchanges(input.history)
    .filter((turn) => turn.command !== ParticipantCommands.video && (turn.text.trim() || (turn.role === 'user' && turn.command)))
    .slice(-MAX_HISTORY_TURNS)
    .map((turn): ChatMessage =>
      turn.role === 'user'
        ? { role: 'user', content: turn.command ? `/${turn.command} ${turn.text}`.trim() : turn.text }
        : { role: 'assistant', content: turn.text },
    );
  return [...past, { role: 'user', content: input.user }];
}

function withoutFailedExchanges(history: readonly PastTurn[]): PastTurn[] {
  const kept: PastTurn[] = [];
  for (const turn of history) {
    if (turn.role === 'assistant' && turn.failed) {
      if (kept[kept.length - 1]?.role === 'user') kept.pop();
      continue;
    }
    kept.push(turn);
  }
  return kept;
}
