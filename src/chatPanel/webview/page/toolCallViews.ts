import type { ToolCallRecord, ToolCallState } from '../../core/model';
import type { ToolDecision } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { button, el } from '../../../webviewPage/dom';

export interface ToolCallHost {
  decide(callId: string, decision: ToolDecision): void;
}

function stateLabel(state: ToolCallState): string {
  switch (state) {
    case 'pending':
      return t('Waiting for your approval');
    case 'running':
      return t('Running…');
    case 'done':
      return t('Done');
    case 'denied':
      return t('Denied');
    case 'failed':
      return t('Failed');
    case 'stopped':
      return t('Stopped');
  }
}

const STATE_ICONS: Record<ToolCallState | 'shown', string> = {
  pending: '?',
  running: '⋯',
  done: '✓',
  denied: '⊘',
  failed: '✕',
  stopped: '■',
  shown: '•',
};

/** A result shown folded; its first lines tell what it is. */
const SUMMARY_CHARS = 80;

/**
 * The tool calls of a reply: each with its arguments, its state and, once run, its result (folded). A call that
 * waits offers Allow, Allow for this chat (read-only tools) and Deny. `live` is false when no reply is running in the
 * chat: a call still marked waiting then was left by a closed window, and shows as not run.
 */
export function renderToolCalls(calls: readonly ToolCallRecord[], live: boolean, host: ToolCallHost): HTMLElement[] {
  return calls.map((call) => {
    const state: ToolCallState | undefined = !live && (call.state === 'pending' || call.state === 'running') ? 'stopped' : call.state;
    const waiting = state === 'pending';
    const title = el('div', { className: 'tool-call-title' }, [
      el('span', { className: 'tool-call-icon', text: STATE_ICONS[state ?? 'shown'], attrs: { 'aria-hidden': 'true' } }),
      el('code', { className: 'tool-call-name', text: call.name || '…' }),
      call.source ? el('span', { className: 'tool-call-source', text: sourceLabel(call) }) : undefined,
      state ? el('span', { className: 'tool-call-state', text: stateLabel(state) }) : undefined,
    ]);
    const args = el('details', { className: 'tool-call-arguments-box' }, [
      el('summary', { text: t('Arguments') }),
      el('pre', { className: 'tool-call-arguments', text: prettyJson(call.arguments), attrs: { tabindex: '0' } }),
    ]);
    args.open = waiting || !state;
    return el(
      'div',
      { className: 'tool-call', dataset: { callId: call.id, state: state ?? 'shown' }, attrs: { role: 'group', 'aria-label': t('Tool call {0}', call.name) } },
      [
        title,
        args,
        waiting ? approvalButtons(call, host) : undefined,
        call.result !== undefined && state !== 'pending' ? resultBox(call.result, state === 'failed') : undefined,
      ],
    );
  });
}

function approvalButtons(call: ToolCallRecord, host: ToolCallHost): HTMLElement {
  const allow = button(t('Allow'), { className: 'primary', dataset: { toolDecision: 'allow' }, ariaLabel: t('Allow {0} to run once', call.name) });
  const forChat = call.readOnly
    ? button(t('Allow for this chat'), { dataset: { toolDecision: 'allowForChat' }, ariaLabel: t('Allow {0} for the rest of this chat', call.name) })
    : undefined;
  const deny = button(t('Deny'), { dataset: { toolDecision: 'deny' }, ariaLabel: t('Deny {0}', call.name) });
  const box = el('div', { className: 'tool-call-approval' }, [
    el('span', { className: 'tool-call-question', text: call.readOnly ? t('Run this read-only tool?') : t('Run this tool? It may change things.') }),
    allow,
    forChat,
    deny,
  ]);
  for (const control of [allow, forChat, deny]) {
    control?.addEventListener('click', () => {
      for (const other of box.querySelectorAll('button')) other.disabled = true;
      host.decide(call.id, control.dataset.toolDecision as ToolDecision);
    });
  }
  return box;
}

function resultBox(result: string, failed: boolean): HTMLElement {
  const firstLine = result.split('\n', 1)[0] ?? '';
  const summary = firstLine.length > SUMMARY_CHARS ? `${firstLine.slice(0, SUMMARY_CHARS)}…` : firstLine;
  return el('details', { className: `tool-call-result${failed ? ' failed' : ''}` }, [
    el('summary', { text: failed ? t('Error: {0}', summary) : t('Result: {0}', summary) }),
    el('pre', { className: 'tool-call-result-text', text: result, attrs: { tabindex: '0' } }),
  ]);
}

function sourceLabel(call: ToolCallRecord): string {
  return call.source === 'promptreel' ? t('Promptreel · read-only') : t('VS Code tool');
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
