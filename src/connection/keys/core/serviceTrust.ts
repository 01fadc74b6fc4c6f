import type { StateStorage } from '../../../common/stateStorage';
import { Emitter } from '../../../common/emitter';
import { Disposable } from '../../../common/lifecycle';
import type { ComponentLogger } from '../../../common/logger';
import { originOf, serviceChoice, type BaseUrlLevels, type ServiceChoice } from './serviceChoice';

export const CONFIRMED_ORIGINS_KEY = 'promptreel.confirmedServiceOrigins';

/**
 * Whether the user chose the service a key would be sent to. A key (stored or from PROMPTREEL_API_KEY) goes to an
 * origin that only a workspace's settings name after the user confirmed that origin once; the answer is kept per
 * origin. Nothing here asks: asking is for commands the user started (see `confirmService`).
 */
export class ServiceTrust extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: StateStorage,
    private readonly levels: () => BaseUrlLevels,
    private readonly log: ComponentLogger,
  ) {
    super();
  }

  choiceOf(scope: string): ServiceChoice {
    return serviceChoice(scope, this.levels(), this.confirmedOrigins());
  }

  isChosen(scope: string): boolean {
    return this.choiceOf(scope) !== 'workspace-only';
  }

  async confirm(scope: string): Promise<void> {
    const origin = originOf(scope);
    if (!origin || this.confirmedOrigins().includes(origin)) return;
    await this.memento.update(CONFIRMED_ORIGINS_KEY, [...this.confirmedOrigins(), origin]);
    this.log.info(`The user confirmed ${origin} as a Promptreel service: keys may be sent there.`);
    this.changed.fire();
  }

  private confirmedOrigins(): string[] {
    const stored = this.memento.get<unknown>(CONFIRMED_ORIGINS_KEY);
    return Array.isArray(stored) ? stored.filter((origin): origin is string => typeof origin === 'string') : [];
  }
}
