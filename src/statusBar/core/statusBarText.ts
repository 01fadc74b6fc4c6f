import type { ChatModelInUse } from '../../connection/core/chatModelChoice';
import { t } from '../../api/l10n';

/** The status bar text: the chat model, then the number of running video tasks when there are any. */
export function statusBarText(chatModel: ChatModelInUse, runningVideoTasks: number): string {
  const model = `$(comment-discussion) ${chatModel.model ?? t('Select chat model')}`;
  return runningVideoTasks > 0 ? `${model} $(loading~spin) ${runningVideoTasks}` : model;
}

export function statusBarTooltip(chatModel: ChatModelInUse, runningVideoTasks: number): string {
  const model =
    chatModel.source === 'setting'
      ? t('Promptreel chat model: {0}', chatModel.model ?? '')
      : chatModel.source === 'first-listed'
        ? t('Promptreel chat model: {0} (the first the service lists; none is selected)', chatModel.model ?? '')
        : t('Promptreel: no chat model selected');
  const tasks = runningVideoTasks > 0 ? [runningVideoTasks === 1 ? t('1 video task running') : t('{0} video tasks running', runningVideoTasks)] : [];
  return [model, ...tasks, t('Click to select the chat model.')].join('\n');
}
