import * as assert from 'assert';
import { statusBarText, statusBarTooltip } from '../../../src/statusBar/chatModelStatusBar';
import { setSetting, testApi } from './shellTestSupport';
import { waitFor } from '../support/waitFor';
import { startLocalService } from '../../service';

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

  it('shows the first listed chat model once the list is known, as the chat would use it', async () => {
    const service = await startLocalService();
    const api = await testApi();
    try {
      await setSetting('baseUrl', service.baseUrl);
      await api.keyStore.store(service.demoKey);
      await setSetting('chat.model', undefined);
      api.languageModels.catalog.invalidate('a new service in the test');
      await api.languageModels.catalog.chatModels();
      await waitFor(() => api.statusBar.text === '$(comment-discussion) promptreel-chat', { what: 'the first listed model in the status bar' });
      assert.match(api.statusBar.tooltip, /the first the service lists; none is selected/);
    } finally {
      await api.keyStore.clear();
      await setSetting('baseUrl', undefined);
      api.languageModels.catalog.invalidate('the test is over');
      await service.stop();
    }
  });

  it('adds the running video tasks, and hides a count of 0', () => {
    const chosen = { model: 'm', source: 'setting' } as const;
    assert.strictEqual(statusBarText(chosen, 0), '$(comment-discussion) m');
    assert.strictEqual(statusBarText(chosen, 3), '$(comment-discussion) m $(loading~spin) 3');
    assert.match(statusBarTooltip(chosen, 1), /1 video task running/);
    assert.match(statusBarTooltip({ model: 'first', source: 'first-listed' }, 0), /first \(the first the service lists; none is selected\)/);
  });
});
