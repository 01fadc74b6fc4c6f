import * as vscode from 'vscode';

type MessageKind = 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage';
type ShowMessage = (message: string, ...items: unknown[]) => Thenable<string | undefined>;

const SEVERITIES: Record<MessageKind, RecordedMessage['severity']> = {
  showInformationMessage: 'info',
  showWarningMessage: 'warning',
  showErrorMessage: 'error',
};

export interface RecordedMessage {
  kind: MessageKind;
  severity: 'info' | 'warning' | 'error';
  message: string;
  /** The button titles. */
  items: string[];
  /** A modal's detail, if it has one. */
  detail?: string;
}

export interface MessageRecorder {
  /** Every message shown, with its buttons, in order. */
  readonly shown: RecordedMessage[];
  restore(): void;
}

/**
 * Records the notifications the extension shows (tests and extension share one `vscode` API object) and answers each
 * with `answer` (a button title, e.g. for a modal confirmation), or dismisses it so no button runs.
 */
export function recordMessages(answer: (shown: RecordedMessage) => string | undefined = () => undefined): MessageRecorder {
  const window = vscode.window as unknown as Record<MessageKind, ShowMessage>;
  const kinds = Object.keys(SEVERITIES) as MessageKind[];
  const originals = kinds.map((kind) => window[kind]);
  const shown: RecordedMessage[] = [];
  for (const kind of kinds) {
    window[kind] = async (message: string, ...items: unknown[]) => {
      const options = items.find((item): item is { detail?: unknown } => typeof item === 'object' && item !== null);
      const recorded: RecordedMessage = { kind, severity: SEVERITIES[kind], message, items: items.filter((item): item is string => typeof item === 'string') };
      if (typeof options?.detail === 'string') recorded.detail = options.detail;
      shown.push(recorded);
      return answer(recorded);
    };
  }
  return { shown, restore: () => kinds.forEach((kind, index) => (window[kind] = originals[index])) };
}
