import type { ChatModelInUse } from '../../connection/core/chatModelChoice';

/** The status bar text: the chat model, then the number of running video tasks when there are any. */
export function statusBarText(chatModel: ChatModelInUse, runningVideoTasks: number): string {
  const model = `$(comment-discussion) ${chatModel.model ?? 'Select chat model'}`;
  return runningVideoTasks > 0 ? `${model} $(loading~spin) ${runningVideoTasks}` : model;
}

export function statusBarTooltip(chatModel: ChatModelInUse, runningVideoTasks: number): string {
  const model =
    chatModel.source === 'setting'
      ? `Promptreel chat model: ${chatModel.model}`
      : chatModel.source === 'first-listed'
        ? `Promptreel chat model: ${chatModel.model} (the first the service lists; none is selected)`
        : 'Promptreel: no chat model selected';
  const tasks = runningVideoTasks > 0 ? `\n${runningVideoTasks} video task${runningVideoTasks === 1 ? '' : 's'} running` : '';
  return `${model}${tasks}\nClick to select the chat model.`;
}
