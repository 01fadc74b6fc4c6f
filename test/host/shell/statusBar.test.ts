import * as assert from 'assert';
import { statusBarText, statusBarTooltip } from '../../../src/statusBar/chatModelStatusBar';
import { setSetting, testApi } from './shellTestSupport';
import { waitFor } from '../support/waitFor';

describe('shell: status bar', () => {
  afterEach(async () => {
    await setSetting('chat.model', undefined);
  });

  it('shows the chat model and follows the setting', async () => {
    const { statusBar } = await testApi();
    await setSetting('chat.model', 'promptreel-chat');
    await waitFor(() => statusBar.text === '$(comment-discussion) promptreel-chat', { what: 'the status bar to show the model' });
    assert.match(statusBar.tooltip, /promptreel-chat/);
    await setSetting('chat.model', 'other-model');
    await waitFor(() => statusBar.text === '$(comment-discussion) other-model', { what: 'the status bar to follow the setting' });
  });

  it('invites to select a model when none is set', async () => {
    const { statusBar } = await testApi();
    await setSetting('chat.model', undefined);
    await waitFor(() => statusBar.text === '$(comment-discussion) Select chat model', { what: 'the placeholder' });
  });

  it('adds the running video tasks, and hides a count of 0', () => {
    assert.strictEqual(statusBarText('m', 0), '$(comment-discussion) m');
    assert.strictEqual(statusBarText('m', 3), '$(comment-discussion) m $(loading~spin) 3');
    assert.match(statusBarTooltip('m', 1), /1 video task running/);
  });
});
