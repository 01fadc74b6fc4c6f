import * as assert from 'node:assert/strict';
import { statusBarText, statusBarTooltip } from '../../../../src/statusBar/core/statusBarText';

describe('status bar text', () => {
  it('adds the running video tasks, and hides a count of 0', () => {
    const chosen = { model: 'm', source: 'setting' } as const;
    assert.equal(statusBarText(chosen, 0), '$(comment-discussion) m');
    assert.equal(statusBarText(chosen, 3), '$(comment-discussion) m $(loading~spin) 3');
    assert.match(statusBarTooltip(chosen, 1), /1 video task running/);
    assert.match(statusBarTooltip(chosen, 2), /2 video tasks running/);
  });

  it('says where the model comes from: the setting, the first listed, or none', () => {
    assert.match(statusBarTooltip({ model: 'm', source: 'setting' }, 0), /^Promptreel chat model: m\n/);
    assert.match(statusBarTooltip({ model: 'first', source: 'first-listed' }, 0), /first \(the first the service lists; none is selected\)/);
    assert.equal(statusBarText({ model: undefined, source: 'none' }, 0), '$(comment-discussion) Select chat model');
    assert.match(statusBarTooltip({ model: undefined, source: 'none' }, 0), /no chat model selected/);
  });
});
