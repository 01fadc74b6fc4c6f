import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import { Emitter } from '../../common/emitter';
import { Disposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import type { SecretRedactor } from '../../common/redactor';
import { lazy } from '../../api/lazy';

const SECRET_PREFIX = 'promptreel.secretHeaders:';

const storedSchema = lazy(() => z.record(z.string(), z.string()));

/**
 * Header values that are secrets (a gateway's second token, an access proxy's client secret), kept in SecretStorage
 * per service (its normalized base URL), never in settings. Each value read is registered with the redactor, so
 * logs and the service's echoes never show it.
 */
export class SecretHeaderStore extends Disposable {
  private readonly changed = this._register(new Emitter<string>());
  /** The secret headers of a service changed (its base URL). */
  readonly onDidChange = this.changed.event;
  /** Reads are round trips to the workbench: kept per service until SecretStorage says they changed. */
  private readonly cache = new Map<string, Promise<Record<string, string>>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: SecretRedactor,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(
      secrets.onDidChange((event) => {
        if (!event.key.startsWith(SECRET_PREFIX)) return;
        this.cache.delete(event.key);
        this.changed.fire(event.key.slice(SECRET_PREFIX.length));
      }),
    );
  }

  /** The secret headers of a service, by name as the user typed it. */
  get(baseUrl: string): Promise<Record<string, string>> {
    const name = SECRET_PREFIX + baseUrl;
    let read = this.cache.get(name);
    if (!read) {
      read = this.read(name);
      this.cache.set(name, read);
    }
    return read;
  }

  async set(baseUrl: string, header: string, value: string): Promise<void> {
    this.redactor.register(value);
    const headers = { ...(await this.get(baseUrl)) };
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === header.toLowerCase()) delete headers[existing];
    headers[header] = value;
    await this.write(baseUrl, headers);
    this.log.info(`Stored the secret header ${header} for ${baseUrl}.`);
  }

  /** False when the service had no such header. */
  async remove(baseUrl: string, header: string): Promise<boolean> {
    const headers = { ...(await this.get(baseUrl)) };
    if (!(header in headers)) return false;
    delete headers[header];
    await this.write(baseUrl, headers);
    this.log.info(`Removed the secret header ${header} of ${baseUrl}.`);
    return true;
  }

  private async write(baseUrl: string, headers: Record<string, string>): Promise<void> {
    const name = SECRET_PREFIX + baseUrl;
    this.cache.set(name, Promise.resolve(headers));
    if (Object.keys(headers).length === 0) await this.secrets.delete(name);
    else await this.secrets.store(name, JSON.stringify(headers));
    this.changed.fire(baseUrl);
  }

  private async read(name: string): Promise<Record<string, string>> {
    const raw = await this.secrets.get(name);
    if (!raw) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    const headers = storedSchema().safeParse(parsed);
    if (!headers.success) {
      this.log.warn('The stored secret headers are unreadable: they are not sent. Set them again with "Promptreel: Set Secret Header".');
      return {};
    }
    for (const value of Object.values(headers.data)) this.redactor.register(value);
    return headers.data;
  }
}
