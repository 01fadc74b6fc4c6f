import type * as vscode from 'vscode';
import type { ServiceClient } from '../api/serviceClient';
import { t } from '../api/l10n';
import type { Connection } from '../connection/connection';
import { recoveryForMissing, type Recovery } from '../connection/core/recovery';
import { recoveryCommand } from './recoveryActions';
import type { ResultMetadata } from './core/chatResult';

export { resultMetadataSchema, type ResultMetadata } from './core/chatResult';

// `@promptreel` in VS Code's Chat, as every feature that answers there sees it: what a result remembers, a slash
// command's handler, and how what is missing or what failed is shown (Markdown and buttons under the answer).

export interface ParticipantResult extends vscode.ChatResult {
  readonly metadata: ResultMetadata;
}

/** Handles one slash command of `@promptreel`. */
export interface ChatCommandHandler {
  handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<ParticipantResult>;
}

/** The client when the service is ready; otherwise what is missing is said, with its buttons, and undefined returned. */
export async function readyForChat(connection: Connection, stream: vscode.ChatResponseStream): Promise<ServiceClient | undefined> {
  const readiness = await connection.readiness();
  if (readiness.kind === 'ready') return readiness.client;
  const recovery = recoveryForMissing(readiness, 'Promptreel');
  stream.markdown(recovery.message);
  addButtons(stream, recovery);
  return undefined;
}

/** A failure under the answer: its buttons, and the error VS Code shows (`received`: part of the answer arrived). */
export function failureResult(stream: vscode.ChatResponseStream, recovery: Recovery, metadata: ResultMetadata, received = false): ParticipantResult {
  addButtons(stream, recovery);
  const message = received ? t('{0} (the part of the answer above arrived before the failure)', recovery.message) : recovery.message;
  return { errorDetails: { message }, metadata };
}

function addButtons(stream: vscode.ChatResponseStream, recovery: Recovery): void {
  for (const action of recovery.actions) {
    const command = recoveryCommand(action, recovery.setting);
    if (command) stream.button(command);
  }
}
