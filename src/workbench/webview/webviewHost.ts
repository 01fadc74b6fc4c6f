import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { Emitter } from '../../common/emitter';
import { Disposable } from '../../common/lifecycle';
import { describeError, type ComponentLogger } from '../../common/logger';
import { newNonce, webviewHtml, type PageFiles } from './core/webviewHtml';
import { webviewOptions } from './webviewPanels';

/** What a page is made of until its script runs; its content arrives by message after it says `ready`. */
export interface WebviewPage {
  title: string;
  /** The page's bundle in `dist/webview/` (built by esbuild.js). */
  script: string;
  /** A bundle in `dist/webview/` the page loads itself once its first screen shows (code that screen does not need). */
  laterScript?: string;
  /** Its stylesheet in `media/`. */
  style: string;
  /** The markup shown until the script has run (escaped by the caller). */
  body: string;
  /** What the page may load from the resource roots besides images. */
  allow?: { fonts?: boolean; media?: boolean };
  /**
   * The subclass shows the page itself, with its first message in it (`showPage`), once it has made that message:
   * the page's first screen then needs no round trip to the host.
   */
  showsWithFirstMessage?: boolean;
}

export interface WebviewHostOptions<In> {
  /** Names the webview in log lines: `chat webview`, `video gallery`. */
  name: string;
  extensionUri: vscode.Uri;
  log: ComponentLogger;
  /** Every message of the page is parsed with it; what does not fit is logged and dropped. */
  schema: z.ZodMiniType<In>;
  /** Folders the page may load from besides the extension's `media/` and `dist/` (the videos a page plays). */
  resourceRoots?: readonly vscode.Uri[];
}

/** The translations the pages need for VS Code's display language (none for English: the text is its own key). */
export function pageStrings(): Record<string, string> {
  return vscode.l10n.bundle ?? {};
}

/** The language of VS Code's UI, for `<html lang>` and the dates the host writes (BCP 47: `zh-cn` → `zh-CN`). */
export function pageLanguage(): string {
  const [language, region] = vscode.env.language.split('-');
  return region ? `${language}-${region.toUpperCase()}` : (language ?? 'en');
}

/**
 * The host side of every Promptreel webview (an editor panel or a side-bar view): it serves the page (its options,
 * its HTML under a strict CSP, its translations), checks each message of the page against the webview's protocol,
 * and posts nothing until the page said `ready`; the subclass answers `ready` with everything the page shows.
 */
export abstract class WebviewHost<In extends { type: string }, Out> extends Disposable {
  readonly #options: WebviewHostOptions<In>;
  readonly #page: WebviewPage;
  #ready = false;
  readonly #posted = this._register(new Emitter<Out>());
  /** Every message sent to the page (tests and the benchmark read what the page was told). */
  readonly onDidPost = this.#posted.event;

  protected constructor(
    protected readonly webview: vscode.Webview,
    options: WebviewHostOptions<In>,
    page: WebviewPage,
  ) {
    super();
    this.#options = options;
    this.setResourceRoots(options.resourceRoots ?? []);
    this.#page = page;
    if (!page.showsWithFirstMessage) this.showPage();
    this._register(webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw)));
  }

  /**
   * Sets the page's HTML (which loads it), with `first` in it for the page to show at once: a page that loads again
   * (hidden, then shown) shows it no more, since it may be stale by then; the host answers `ready` as always.
   */
  protected showPage(first?: Out, inline?: PageFiles): void {
    const page = this.#page;
    const bundleUri = (bundle: string) => this.webview.asWebviewUri(vscode.Uri.joinPath(this.#options.extensionUri, 'dist', 'webview', bundle)).toString();
    this.webview.html = webviewHtml({
      title: page.title,
      cspSource: this.webview.cspSource,
      nonce: newNonce(),
      ...(page.allow ? { allow: page.allow } : {}),
      baseStyleHref: this.webview.asWebviewUri(vscode.Uri.joinPath(this.#options.extensionUri, 'media', 'page.css')).toString(),
      styleHref: this.webview.asWebviewUri(vscode.Uri.joinPath(this.#options.extensionUri, 'media', page.style)).toString(),
      scriptSrc: bundleUri(page.script),
      ...(page.laterScript ? { laterScriptSrc: bundleUri(page.laterScript) } : {}),
      body: page.body,
      l10n: { language: pageLanguage(), strings: pageStrings() },
      ...(first !== undefined ? { firstMessage: { id: newNonce(), message: first } } : {}),
      ...(inline ? { inline } : {}),
    });
  }

  /**
   * The page's bundle and stylesheets, to write into it (`showPage`): read once per window, from the extension's own
   * files. Undefined when they cannot be read: the page then loads them.
   */
  protected async pageFiles(): Promise<PageFiles | undefined> {
    const root = this.#options.extensionUri;
    const files = [
      vscode.Uri.joinPath(root, 'dist', 'webview', this.#page.script),
      vscode.Uri.joinPath(root, 'media', 'page.css'),
      vscode.Uri.joinPath(root, 'media', this.#page.style),
    ];
    const key = files.map((file) => file.toString()).join(' ');
    let reading = pageFilesRead.get(key);
    if (!reading) {
      const decoder = new TextDecoder();
      reading = Promise.all(files.map(async (file) => decoder.decode(await vscode.workspace.fs.readFile(file)))).then(([script = '', ...styles]) => ({
        script,
        styles,
      }));
      pageFilesRead.set(key, reading);
    }
    return reading.catch((error: unknown) => {
      pageFilesRead.delete(key);
      this.#options.log.warn(`The ${this.#options.name} loads its files itself: ${describeError(error)}`);
      return undefined;
    });
  }

  /** The page has said `ready` (it listens). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Checks one message of the page and handles it; one that does not fit the protocol is logged and dropped. */
  async handleMessage(raw: unknown): Promise<void> {
    const parsed = z.safeParse(this.#options.schema, raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.#options.log.warn(`Dropped an invalid message from the ${this.#options.name}: ${issue?.message ?? 'unknown'} at ${issue?.path.join('.') ?? ''}`);
      return;
    }
    const message = parsed.data;
    try {
      if (isReady(message)) {
        const first = !this.#ready;
        this.#ready = true;
        await this.onReady(message, first);
      } else {
        // Not `ready` (TypeScript does not narrow a generic union by exclusion).
        await this.onMessage(message as Exclude<In, { type: 'ready' }>);
      }
    } catch (error) {
      this.failed(message, error);
    }
  }

  /** Tells the page something; nothing goes before the page said `ready`. Resolves with whether the page got it. */
  post(message: Out): Promise<boolean> {
    if (!this.#ready) return Promise.resolve(false);
    this.#posted.fire(message);
    return Promise.resolve(this.webview.postMessage(message)).then(
      (delivered) => delivered,
      (error: unknown) => {
        this.#options.log.debug(`Could not post to the ${this.#options.name}: ${describeError(error)}`);
        return false;
      },
    );
  }

  /** The page said `ready` (`first`: the first time since this host was made; a hidden page loads again): show it all. */
  protected abstract onReady(message: Extract<In, { type: 'ready' }>, first: boolean): Promise<void> | void;

  /** A message of the page other than `ready`, checked. */
  protected abstract onMessage(message: Exclude<In, { type: 'ready' }>): Promise<unknown> | unknown;

  /** Handling a message failed: logged (a subclass may tell the user too). */
  protected failed(message: In, error: unknown): void {
    this.#options.log.error(`Handling "${message.type}" from the ${this.#options.name} failed: ${describeError(error)}`);
  }

  /** The folders the page may load from besides `media/` and `dist/` (a gallery's videos move). */
  protected setResourceRoots(folders: readonly vscode.Uri[]): void {
    this.webview.options = webviewOptions(this.#options.extensionUri, folders);
  }
}

/** The files of each page written into it, by their addresses: read once per window. */
const pageFilesRead = new Map<string, Promise<PageFiles>>();

function isReady<In extends { type: string }>(message: In): message is Extract<In, { type: 'ready' }> {
  return message.type === 'ready';
}
