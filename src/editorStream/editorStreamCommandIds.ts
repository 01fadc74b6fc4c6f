/** The commands of streaming into the editor; package.json declares the same ids. */
export const EditorStreamCommandIds = {
  completeAtCursor: 'promptreel.completeAtCursor',
  rewriteSelection: 'promptreel.rewriteSelection',
  cancelEditorStream: 'promptreel.cancelEditorStream',
  retryEditorStreamNow: 'promptreel.retryEditorStreamNow',
  acceptRewrite: 'promptreel.acceptRewrite',
  rejectRewrite: 'promptreel.rejectRewrite',
} as const;

/** True while text streams into an editor (Escape stops it). */
export const EDITOR_STREAMING_CONTEXT = 'promptreel.editorStreaming';

/** True while a run into the editor waits out HTTP 429 (Retry Now is offered). */
export const EDITOR_RATE_LIMITED_CONTEXT = 'promptreel.editorRateLimited';
