import type { MentionView } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { button, el } from '../../../webviewPage/dom';

/** "1.2k" tokens, as chips show them. */
export function shortTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  return tokens < 100_000 ? `${(tokens / 1000).toFixed(1)}k` : `${Math.round(tokens / 1000)}k`;
}

export interface ChipActions {
  open(id: string): void;
  /** Absent for a sent message's chips (they stay as they were sent). */
  remove?(id: string): void;
  /** Tokens the meter says this chip would be cut to. */
  trimmedTo?(id: string): number | undefined;
}

/** One chip per mention: what it is (path:lines, size), its token count, a click to open it, × to remove it. */
export function mentionChips(mentions: readonly MentionView[], actions: ChipActions): HTMLElement[] {
  return mentions.map((mention) => {
    const cutTo = mention.trimmedFrom !== undefined ? mention.tokens : actions.trimmedTo?.(mention.id);
    const from = mention.trimmedFrom ?? mention.tokens;
    const tokens = cutTo !== undefined ? t('{0} of {1} tokens', shortTokens(cutTo), shortTokens(from)) : t('≈{0} tokens', shortTokens(mention.tokens));
    const open = el(
      'button',
      {
        className: 'mention-chip-open',
        attrs: { type: 'button', title: t('Open {0}', mention.label), 'aria-label': t('Open {0}, {1}, {2}', mention.label, mention.detail ?? '', tokens) },
      },
      [
        el('span', { className: 'mention-chip-label', text: mention.label }),
        mention.detail ? el('span', { className: 'mention-chip-detail', text: mention.detail }) : undefined,
        el('span', { className: 'mention-chip-tokens', text: tokens }),
      ],
    );
    open.addEventListener('click', () => actions.open(mention.id));
    const chip = el(
      'span',
      { className: 'chip mention-chip', dataset: { kind: mention.kind, mentionId: mention.id, ...(cutTo !== undefined ? { trimmed: 'true' } : {}) } },
      [open],
    );
    if (actions.remove) {
      const remove = button('×', { className: 'chip-remove', ariaLabel: t('Remove {0} from the message', mention.label) });
      remove.addEventListener('click', () => actions.remove?.(mention.id));
      chip.append(remove);
    }
    return chip;
  });
}
