import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import type { ApiKeyStore } from '../connection/keys/apiKeyStore';

export const HAS_API_KEY_CONTEXT = 'promptreel.hasApiKey';

/** Keeps the `promptreel.hasApiKey` context key (which drives `viewsWelcome`) in step with the key store. */
export class ApiKeyContext extends Disposable {
  private current: boolean | undefined;
  private pending: Promise<boolean> = Promise.resolve(false);

  constructor(
    private readonly store: ApiKeyStore,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(store.onDidChange(() => void this.refresh()));
    void this.refresh();
  }

  get value(): boolean {
    return this.current ?? false;
  }

  /** Re-reads the store; refreshes run one after another, so the last one wins. */
  refresh(): Promise<boolean> {
    this.pending = this.pending.then(() => this.update());
    return this.pending;
  }

  private async update(): Promise<boolean> {
    try {
      const hasKey = (await this.store.get()) !== undefined;
      if (hasKey !== this.current) {
        this.current = hasKey;
        await vscode.commands.executeCommand('setContext', HAS_API_KEY_CONTEXT, hasKey);
        this.log.debug(`${HAS_API_KEY_CONTEXT} = ${hasKey}`);
      }
    } catch (error) {
      this.log.error(`Could not read the API key state: ${describeError(error)}`);
    }
    return this.value;
  }
}
