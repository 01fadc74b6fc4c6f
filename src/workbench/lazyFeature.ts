// Pinned by `npm run bench -- --only startup`: the JS loaded at activation, and activation in the real host.
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { CommandIds } from '../common/contributions';
import type { IDisposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import type { CommandHandler } from './registerCommands';
import { showMessage } from './showMessage';

/**
 * A feature whose code loads on its first use rather than at activation: `load` imports its module (a chunk of its
 * own, see esbuild.js) and builds it, once. What VS Code must know from the start (commands, views, serializers) is
 * registered by the feature's surfaces module, which calls `get()` when the user first reaches it.
 */
export class LazyFeature<T extends object> implements vscode.Disposable {
  private loading: Promise<T> | undefined;
  private built: T | undefined;
  private disposed = false;

  /** `name` says in the log which feature it is ("chat panel"). */
  constructor(
    private readonly name: string,
    private readonly load: () => Promise<T>,
    private readonly log: ComponentLogger,
  ) {}

  /** The feature, if its code has loaded. */
  get loaded(): T | undefined {
    return this.built;
  }

  get(): Promise<T> {
    this.loading ??= this.build();
    return this.loading;
  }

  /**
   * Registers each command id with a handler that loads the feature, then runs its handler for that id. A failure to
   * load is shown once per attempt, with Show Logs, and the next use tries again.
   */
  registerCommands(ids: readonly string[], handlersOf: (feature: T) => Readonly<Record<string, CommandHandler>>): vscode.Disposable {
    return vscode.Disposable.from(
      ...ids.map((id) =>
        vscode.commands.registerCommand(id, async (...args: never[]) => {
          const feature = await this.getOrReport();
          if (!feature) return undefined;
          const handler = handlersOf(feature)[id];
          if (!handler) throw new Error(`${this.name} has no handler for ${id}`);
          return handler(...args);
        }),
      ),
    );
  }

  /** `get()`, or undefined after telling the user why the feature could not load. */
  async getOrReport(): Promise<T | undefined> {
    try {
      return await this.get();
    } catch (error) {
      showMessage('error', t('Promptreel could not load the code of this command: {0}', describeError(error)), [
        { title: t('Show Logs'), command: CommandIds.showLogs },
      ]);
      return undefined;
    }
  }

  dispose(): void {
    this.disposed = true;
    disposeIfDisposable(this.built);
    this.built = undefined;
  }

  private async build(): Promise<T> {
    const started = performance.now();
    try {
      const feature = await this.load();
      if (this.disposed) {
        disposeIfDisposable(feature);
        throw new Error(`${this.name} was loaded after the extension stopped`);
      }
      this.built = feature;
      this.log.info(`Loaded the ${this.name} in ${(performance.now() - started).toFixed(0)} ms.`);
      return feature;
    } catch (error) {
      this.loading = undefined;
      this.log.error(`Could not load the ${this.name}: ${describeError(error)}`);
      throw error;
    }
  }
}

function disposeIfDisposable(value: object | undefined): void {
  if (value && 'dispose' in value && typeof value.dispose === 'function') (value as IDisposable).dispose();
}
