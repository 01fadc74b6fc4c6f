import { PARTICIPANT_ID, ParticipantCommands } from '../common/contributions';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import type { AnswerHandler } from './answerHandler';
import type { ChatCommandHandler, ParticipantResult } from '../workbench/chatParticipant';

/** What answers a request; its code loads on the first request (see src/extension.ts). */
export interface ParticipantHandlers {
  readonly answers: AnswerHandler;
  /** `/video`. */
  readonly video: ChatCommandHandler;
  /** `/film`. */
  readonly film: ChatCommandHandler;
}

/** `@promptreel` in VS Code's chat: answers, `/explain`, `/video` and `/film`, with follow-ups after each result. */
export class PromptreelParticipant extends Disposable {
  readonly participant: vscode.ChatParticipant;

  constructor(
    extensionUri: vscode.Uri,
    private readonly handlers: () => Promise<ParticipantHandlers>,
    private readonly log: ComponentLogger,
  ) {
    super();
    this.participant = this._register(
      vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => this.handle(request, context, stream, token)),
    );
    this.participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'promptreel.svg');
    this.participant.followupProvider = { provideFollowups: (result) => this.provideFollowups(result) };
    this._register(
      this.participant.onDidReceiveFeedback((feedback) =>
        this.log.info(`@promptreel feedback: ${feedback.kind === vscode.ChatResultFeedbackKind.Helpful ? 'helpful' : 'unhelpful'}.`),
      ),
    );
  }

  async handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<ParticipantResult> {
    this.log.debug(`@promptreel ${request.command ? `/${request.command}` : 'request'} (${request.references.length} reference(s)).`);
    try {
      const { answers, video, film } = await this.handlers();
      switch (request.command) {
        case ParticipantCommands.video:
          return await video.handle(request, context, stream, token);
        case ParticipantCommands.film:
          return await film.handle(request, context, stream, token);
        case ParticipantCommands.explain:
          return await answers.answer(request, context, stream, token, 'explain');
        default:
          return await answers.answer(request, context, stream, token, 'answer');
      }
    } catch (error) {
      // Anything unexpected still ends as a message with Show Logs, never as a silent empty answer.
      this.log.error(`@promptreel failed unexpectedly: ${describeError(error)}`);
      return (await import('./participantFailure')).participantFailure(error, stream);
    }
  }

  async provideFollowups(result: vscode.ChatResult): Promise<vscode.ChatFollowup[]> {
    return (await import('./core/followups')).followupsFor(result.metadata);
  }
}
