import { Emitter, type Event } from '../../common/emitter';
import { Disposable } from '../../common/lifecycle';
import type { Settings } from '../../config/settings';
import type { ModelCatalog } from './modelCatalog';

/** The chat model in use, and why: the user's setting, or the first chat model the service lists. */
export interface ChatModelInUse {
  model: string | undefined;
  source: 'setting' | 'first-listed' | 'none';
}

/**
 * The one answer to "which chat model": `promptreel.chat.model`, else the first chat model the service lists. The
 * chat panel, Complete at Cursor, Rewrite, the explainer, `@promptreel` and the status bar all ask here.
 */
export class ChatModelChoice extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    private readonly settings: Settings,
    private readonly catalog: ModelCatalog,
  ) {
    super();
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('chat.model')) this.changed.fire();
      }),
    );
    this._register(catalog.onDidChange(() => this.changed.fire()));
  }

  /** The model to use, listing the models when none is set; undefined when the service lists none (or cannot list). */
  async resolve(signal?: AbortSignal): Promise<string | undefined> {
    const configured = this.settings.get('chat.model').trim();
    if (configured) return configured;
    const listed = await this.catalog.chatModels(signal).catch(() => []);
    return listed[0]?.id;
  }

  /** What is known without asking the service (for the status bar). */
  inUse(): ChatModelInUse {
    const configured = this.settings.get('chat.model').trim();
    if (configured) return { model: configured, source: 'setting' };
    const first = this.catalog.knownChatModels()?.[0]?.id;
    return first ? { model: first, source: 'first-listed' } : { model: undefined, source: 'none' };
  }
}
