import { ParticipantCommands } from '../../common/contributions';
import { resultMetadataSchema } from '../../workbench/core/chatResult';
import { t } from '../../api/l10n';

/** The shape of `vscode.ChatFollowup`. */
export interface Followup {
  prompt: string;
  label: string;
  command?: string;
}

/**
 * Follow-ups offered after a result; nothing after a failure, a cancelled request or a setup hint. The labels are in
 * VS Code's language; the prompts stay English (the model reads them).
 */
export function followupsFor(metadata: unknown): Followup[] {
  const parsed = resultMetadataSchema().safeParse(metadata);
  if (!parsed.success) return [];
  const result = parsed.data;
  switch (result.kind) {
    case 'answer':
      return [
        { prompt: 'Explain that in more detail, with an example.', label: t('Tell me more') },
        { prompt: 'Summarize that in three bullet points.', label: t('Summarize') },
      ];
    case 'explain':
      // A follow-up stays with its command: these ask /explain again, with a focus.
      return [
        { prompt: 'in simpler words, for someone new to this language', label: t('Explain it more simply'), command: ParticipantCommands.explain },
        { prompt: 'the edge cases: what could go wrong, and how to guard against it', label: t('What could go wrong?'), command: ParticipantCommands.explain },
      ];
    case 'video':
      return result.prompt ? [{ prompt: result.prompt, label: t('Make another video from the same prompt'), command: ParticipantCommands.video }] : [];
    case 'video-confirm':
      return result.prompt
        ? [
            {
              prompt: result.prompt,
              label: result.price ? t('Generate for {0}', result.price) : t('Generate it (price not known)'),
              command: ParticipantCommands.video,
            },
          ]
        : [];
    default:
      return [];
  }
}
