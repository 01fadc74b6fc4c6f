// Workbench sessions that several UI suites share: each spares a start of code-server and Chromium and the warm-up
// of a new workbench (about 18 s). The suites of a session run one after the other (test/.mocharc.ui.json), so their
// settings here must suit them all; what one suite leaves behind that another could trip over is listed with it.
import type { WorkbenchOptions } from './workbench';

/** Every session here runs with the local service's demo key in the environment. */
const demoKey: WorkbenchOptions['env'] = (service) => ({ PROMPTREEL_API_KEY: service.demoKey });

/**
 * The storyboard editor and the player (film.test.ts), then axe-core in every page (accessibility.test.ts). Film
 * shoots nothing: the accessibility suite's video and its gallery card are the only ones.
 */
export const FILM_AND_PAGES: WorkbenchOptions = {
  name: 'film-and-pages',
  shared: true,
  env: demoKey,
  settings: {
    'promptreel.chat.model': 'promptreel-chat',
    'promptreel.video.model': 'promptreel-video',
    'promptreel.video.pollIntervalSeconds': 2,
    'promptreel.video.autoDownload': true,
  },
  service: { scenario: { video: { pollsToRunning: 0, pollsToDone: 1 } } },
};

/**
 * Show Usage (usage.test.ts) first: it reads the key's whole log, which must hold only what it wrote. Then the
 * 500-message chat (chatLongConversation.test.ts), which sends nothing, so the $1 daily budget never stops it.
 */
export const USAGE_AND_LONG_CHAT: WorkbenchOptions = {
  name: 'usage-and-long-chat',
  shared: true,
  env: demoKey,
  settings: { 'promptreel.chat.model': 'promptreel-chat', 'promptreel.account.dailyBudget': 1, 'promptreel.account.monthlyBudget': 20 },
};

/** The file the mention suite picks with `@alph` (its size is shown on the chip). */
export const ALPHA = 'export function alphaMentionTarget(): number {\n  return 42;\n}\n';

/**
 * The chat panel (chat.test.ts) first: its first test needs a window whose Chat view was never shown. Then mentions,
 * pasted images and tools (chatMentions.test.ts), with promptreel-chat declared to see images and call tools; the
 * reasoner's 64-token limit is the chat suite's, and neither suite sends to the other's model.
 */
export const CHAT_AND_MENTIONS: WorkbenchOptions = {
  name: 'chat-and-mentions',
  shared: true,
  env: demoKey,
  settings: {
    'promptreel.chat.model': 'promptreel-chat',
    'workbench.colorTheme': 'Default Dark Modern',
    // More than the reasoner writes: its request is adjusted, and the reply says so.
    'promptreel.chat.maxTokens': 256,
    'promptreel.models.capabilities': { 'promptreel-reasoner': { maxOutputTokens: 64 }, 'promptreel-chat': { vision: true, tools: true } },
  },
  files: {
    'src/scratch.ts': '',
    'src/mention/alpha.ts': ALPHA,
    'src/mention/beta.ts': 'export const beta = 2;\n',
    'src/other/alphabet.md': '# abc\n',
  },
};

/** The file the editor streaming suite completes in (one undo brings it back as it was). */
export const SUM = 'function sum(a: number, b: number) {\n  \n}\n';

/**
 * Video tasks (video.test.ts) first: every task it starts has completed by its end, so the reset service never has to
 * answer for one. Then streaming into the editor (editorStream.test.ts), which leaves unsaved files (auto save is off)
 * and so must be the session's last suite.
 */
export const VIDEO_AND_EDITOR: WorkbenchOptions = {
  name: 'video-and-editor',
  shared: true,
  env: demoKey,
  settings: {
    'promptreel.chat.model': 'promptreel-chat',
    'promptreel.video.model': 'promptreel-video',
    'promptreel.video.pollIntervalSeconds': 2,
    'promptreel.editor.rewriteMode': 'diff',
    'files.autoSave': 'off',
  },
  service: { scenario: { video: { pollsToRunning: 1, pollsToDone: 6 } } },
  files: {
    // As a cloned repository may ship them: a task whose input runs Generate Video with a prompt, and a price of its
    // own for the model (review 2.3, 2.4). Every price in the video suite must still be the service's.
    '.vscode/tasks.json': JSON.stringify({
      version: '2.0.0',
      tasks: [{ label: 'Make a promo video', type: 'shell', command: 'echo ${input:promo}', problemMatcher: [] }],
      inputs: [{ id: 'promo', type: 'command', command: 'promptreel.generateVideo', args: { prompt: 'A kite from a task input', review: false } }],
    }),
    '.vscode/settings.json': JSON.stringify({ 'promptreel.models.prices': { 'promptreel-video': { perRequest: 0.01 } } }),
    'src/sum.ts': SUM,
    'src/vars.ts': 'const a = 1;\nlet b = 2;\nconsole.log(a + b);\n',
  },
};
