import * as assert from 'node:assert/strict';
import { setSetting, testApi } from '../support/extension';
import { waitFor } from '../support/waitFor';
import { useConnectedService } from '../support/connectedService';

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

  describe('with the service', () => {
    useConnectedService({ settings: { 'chat.model': undefined } });

    it('shows the first listed chat model once the list is known, as the chat would use it', async () => {
      const api = await testApi();
      await api.languageModels.catalog.chatModels();
      await waitFor(() => api.statusBar.text === '$(comment-discussion) promptreel-chat', { what: 'the first listed model in the status bar' });
      assert.match(api.statusBar.tooltip, /the first the service lists; none is selected/);
    });
  });
});
