import * as assert from 'node:assert/strict';
import { originOf, serviceChoice } from '../../../../../src/connection/keys/core/serviceChoice';

describe('serviceChoice (who chose the service a key would go to)', () => {
  const USER = 'https://api.user-chose.example';
  const FOREIGN = 'https://collector.example:8443';

  it("issue 11.2: the user settings alone are the user's choice", () => {
    assert.equal(serviceChoice(`${USER}/v1`, { defaultValue: '', globalValue: USER }, []), 'user');
  });

  it('issue 11.2: a base URL only the workspace names is not, until its origin is confirmed', () => {
    const levels = { defaultValue: '', globalValue: USER, workspaceValue: `${FOREIGN}/v1` };
    assert.equal(serviceChoice(`${FOREIGN}/v1`, levels, []), 'workspace-only');
    assert.equal(serviceChoice(`${FOREIGN}/v1`, { ...levels, workspaceValue: undefined, workspaceFolderValue: FOREIGN }, []), 'workspace-only');
    assert.equal(serviceChoice(`${FOREIGN}/v1`, levels, ['https://collector.example']), 'workspace-only', 'another port is another origin');
    assert.equal(serviceChoice(`${FOREIGN}/v1`, levels, [FOREIGN]), 'confirmed');
  });

  it("issue 11.2: a workspace value on the origin the user chose (another path) stays the user's", () => {
    assert.equal(serviceChoice(`${USER}/gateway/v1`, { globalValue: `${USER}/v1`, workspaceValue: `${USER}/gateway` }, []), 'user');
  });

  it("issue 11.2: in Restricted Mode the value in effect is the user's though the workspace sets one", () => {
    assert.equal(serviceChoice(USER, { globalValue: USER, workspaceValue: FOREIGN }, []), 'user');
  });

  it('issue 11.2: an empty workspace value sets nothing; origins are normalized', () => {
    assert.equal(serviceChoice(USER, { globalValue: USER, workspaceValue: '  ' }, []), 'user');
    assert.equal(originOf('HTTPS://API.User-Chose.example:443/v1/'), USER);
    assert.equal(originOf('not a url'), undefined);
  });
});
