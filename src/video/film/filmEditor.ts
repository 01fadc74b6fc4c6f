import * as vscode from 'vscode';
import { formatUsd } from '../../api/account/prices';
import { t } from '../../api/l10n';
import { MAX_VIDEO_SECONDS } from '../../api/video/request';
import { CommandIds, ViewIds } from '../../common/contributions';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { describeError } from '../../common/logger';
import { describeQuotePrice, quoteWarning } from '../../connection/core/chargeGate';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { webviewOptions, WebviewHost } from '../../workbench/webview/webviewHost';
import { showMessage } from '../../workbench/showMessage';
import type { VideoModelLimits } from '../core/videoModelLimits';
import { limitsOf } from '../modelLimits';
import { filmCost, filmRequests } from './core/filmRequests';
import { MAX_SHOTS, MIN_SHOTS, type FilmOutput, type Storyboard } from './core/storyboard';
import { FilmAssembly } from './filmAssembly';
import type { VideoTaskStore } from '../core/taskStore';
import { applyEdit, type EditRefusal, type StoryboardEdit } from './core/storyboardEdits';
import { readFilm, saveFilm } from './filmFiles';
import { shootFilm, shotOptions, type FilmShootDeps, type ShootOutcome } from './filmShoot';
import { filmToHostSchema, type FilmToHost, type FilmView, type HostToFilm } from './protocol';

export interface FilmEditorDeps extends FilmShootDeps {
  extensionUri: vscode.Uri;
  store: VideoTaskStore;
}

/**
 * The storyboard editor's host: the film as its file holds it, each change of the page applied, checked and saved
 * back at once, the costs and the charge gate's total sent after each; Shoot goes through the gate's modal.
 */
export class FilmEditorHost extends WebviewHost<FilmToHost, HostToFilm> {
  private limits: VideoModelLimits | undefined;
  private busy = false;
  private shown: FilmView | undefined;
  /** Each view is priced before it is sent: only the latest one goes (an older one's price may arrive later). */
  private views = 0;
  /** What the last Shoot came to (tests read it). */
  lastShoot: ShootOutcome | undefined;

  constructor(
    webview: vscode.Webview,
    private readonly deps: FilmEditorDeps,
    readonly file: vscode.Uri,
    private storyboard: Storyboard,
    private readonly afterShoot: (file: vscode.Uri) => void,
  ) {
    super(
      webview,
      { name: 'storyboard editor', extensionUri: deps.extensionUri, log: deps.log, schema: filmToHostSchema },
      {
        title: t('Storyboard'),
        script: 'film.js',
        style: 'film.css',
        body: `<main id="film" aria-busy="true"><p>${escapeHtml(t('Loading the storyboard…'))}</p></main>`,
      },
    );
    this._register(deps.connection.prices.onDidChange(() => void this.postFilm()));
  }

  get film(): Storyboard {
    return this.storyboard;
  }

  /** Records what the shots were made into (the assembly's), saved at once. */
  async recordOutput(output: FilmOutput): Promise<void> {
    this.storyboard = { ...this.storyboard, output };
    await saveFilm(this.file, this.storyboard);
    await this.postFilm();
  }

  /** The film as the page was last sent it (costs and total included). */
  view(): FilmView | undefined {
    return this.shown;
  }

  protected onReady(): Promise<void> {
    return this.postFilm();
  }

  protected async onMessage(message: Exclude<FilmToHost, { type: 'ready' }>): Promise<void> {
    if (message.type === 'play') return void (await vscode.commands.executeCommand(CommandIds.video.playFilm, this.file));
    if (this.busy) return;
    if (message.type === 'shoot') return this.shoot();
    const edit = await this.editOf(message);
    const result = applyEdit(this.storyboard, edit);
    if (!result.ok) {
      await this.post({ type: 'notice', text: refusalText(result.refusal) });
      await this.postFilm();
      return;
    }
    this.storyboard = result.storyboard;
    await saveFilm(this.file, this.storyboard);
    await this.postFilm();
  }

  private async editOf(message: Exclude<FilmToHost, { type: 'ready' | 'shoot' | 'play' }>): Promise<StoryboardEdit> {
    switch (message.type) {
      case 'change':
        return { kind: 'change', id: message.id, prompt: message.prompt, caption: message.caption, seconds: message.seconds };
      case 'move':
        return { kind: 'move', id: message.id, by: message.by };
      case 'remove':
        return { kind: 'remove', id: message.id };
      case 'add': {
        const limits = await this.modelLimits();
        const before = this.storyboard.shots.find((shot) => shot.id === message.after) ?? this.storyboard.shots.at(-1);
        const seconds = before?.seconds ?? limits.durations?.[0] ?? 5;
        return {
          kind: 'add',
          ...(message.after ? { after: message.after } : {}),
          shot: { prompt: t('Describe what this shot shows.'), caption: t('Say what this shot explains.'), seconds },
        };
      }
    }
  }

  private async shoot(): Promise<void> {
    this.busy = true;
    await this.postFilm();
    try {
      this.lastShoot = await shootFilm(this.deps, { file: this.file, storyboard: this.storyboard }, async (shotId, task) => {
        this.storyboard = { ...this.storyboard, shots: this.storyboard.shots.map((shot) => (shot.id === shotId ? { ...shot, taskId: task.id } : shot)) };
        await saveFilm(this.file, this.storyboard);
      });
      if (this.lastShoot.kind === 'shot') this.afterShoot(this.file);
    } finally {
      this.busy = false;
      await this.postFilm();
    }
  }

  protected override failed(message: FilmToHost, error: unknown): void {
    super.failed(message, error);
    showMessage('error', t('The storyboard could not be changed: {0}', describeError(error)));
  }

  private async modelLimits(): Promise<VideoModelLimits> {
    this.limits ??= await limitsOf(this.deps.settings, this.deps.connection, this.storyboard.model);
    return this.limits;
  }

  private async postFilm(): Promise<void> {
    if (!this.ready) return;
    const turn = ++this.views;
    const storyboard = this.storyboard;
    const limits = await this.modelLimits();
    const costs = filmCost(this.deps.connection.prices.known().get(storyboard.model), storyboard);
    // The total and what the key keeps are the charge gate's, of exactly the requests Shoot would send.
    const quote = await this.deps.connection.videoCharges.quote(filmRequests(storyboard, shotOptions(this.deps.settings, limits)));
    if (turn !== this.views) return;
    const priceUsd = quote.charge.priceUsd;
    const offered = limits.durations?.length ? [...limits.durations] : Array.from({ length: MAX_VIDEO_SECONDS }, (_unused, index) => index + 1);
    const durations = [...new Set([...offered, ...storyboard.shots.map((shot) => shot.seconds)])].sort((a, b) => a - b);
    const warning = quoteWarning(quote);
    const film: FilmView = {
      name: storyboard.name,
      model: storyboard.model,
      file: vscode.workspace.asRelativePath(this.file, false),
      shots: storyboard.shots.map((shot, index) => {
        const cost = costs.shots[index];
        return { ...shot, ...(cost !== undefined ? { cost: formatUsd(cost) } : {}) };
      }),
      durations,
      total: describeQuotePrice(quote),
      ...(warning ? { warning } : {}),
      shoot: priceUsd !== undefined ? t('Shoot the film for {0}', formatUsd(priceUsd)) : t('Shoot the film (price not known)'),
      ...(storyboard.output ? { made: storyboard.output.video ?? storyboard.output.playlist } : {}),
      canAdd: storyboard.shots.length < MAX_SHOTS,
      canRemove: storyboard.shots.length > MIN_SHOTS,
      busy: this.busy,
    };
    this.shown = film;
    await this.post({ type: 'film', film });
  }
}

function refusalText(refusal: EditRefusal): string {
  switch (refusal) {
    case 'too-few':
      return t('A film has at least {0} shots.', MIN_SHOTS);
    case 'too-many':
      return t('A film has at most {0} shots.', MAX_SHOTS);
    case 'at-edge':
      return t('The shot cannot move further.');
    case 'no-shot':
      return t('That shot is no longer in the storyboard.');
    case 'invalid':
      return t('A shot needs a visual prompt and a caption (at most 200 characters).');
  }
}

interface OpenEditor {
  panel: vscode.WebviewPanel;
  host: FilmEditorHost;
}

/** The open storyboard editors, one per film file. */
export class FilmEditors extends Disposable {
  private readonly open = new Map<string, OpenEditor>();
  /** Makes each film shot here of its shots once they are downloaded. */
  readonly assembly: FilmAssembly;

  constructor(private readonly deps: FilmEditorDeps) {
    super();
    this._register(toDisposable(() => [...this.open.values()].forEach((editor) => editor.panel.dispose())));
    this.assembly = this._register(
      new FilmAssembly({
        store: deps.store,
        log: deps.log,
        read: async (file) => {
          const editor = this.editorOf(file);
          if (editor) return editor.film;
          const read = await readFilm(file);
          return read.ok ? read.storyboard : undefined;
        },
        record: async (file, output) => {
          const editor = this.editorOf(file);
          if (editor) return editor.recordOutput(output);
          const read = await readFilm(file);
          if (read.ok) await saveFilm(file, { ...read.storyboard, output });
        },
      }),
    );
  }

  /** Opens (or reveals) the editor of a film file; undefined when the file is not a storyboard (the user is told why). */
  async openFile(file: vscode.Uri): Promise<FilmEditorHost | undefined> {
    const existing = this.open.get(file.toString());
    if (existing) {
      existing.panel.reveal();
      return existing.host;
    }
    const read = await readFilm(file);
    if (!read.ok) {
      this.deps.log.warn(`The storyboard ${file.toString()} cannot be opened: ${read.problems.join('; ')}`);
      showMessage('error', t('The storyboard cannot be opened: {0}', read.problems.join(' ')));
      return undefined;
    }
    const panel = vscode.window.createWebviewPanel(
      ViewIds.filmEditor,
      t('Storyboard: {0}', read.storyboard.name),
      vscode.ViewColumn.Active,
      webviewOptions(this.deps.extensionUri),
    );
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'promptreel.svg');
    const host = new FilmEditorHost(panel.webview, this.deps, file, read.storyboard, (shot) => this.assembly.watch(shot));
    const key = file.toString();
    this.open.set(key, { panel, host });
    panel.onDidDispose(() => {
      if (this.open.get(key)?.host === host) this.open.delete(key);
      host.dispose();
    });
    return host;
  }

  /** The editor of a film file, when open. */
  editorOf(file: vscode.Uri): FilmEditorHost | undefined {
    return this.open.get(file.toString())?.host;
  }

  /** The panel of a film file's editor, when open. */
  panelOf(file: vscode.Uri): vscode.WebviewPanel | undefined {
    return this.open.get(file.toString())?.panel;
  }

  /** Checks a message as if the film's page sent it, and does what it asks. */
  async handleMessage(file: vscode.Uri, raw: unknown): Promise<void> {
    try {
      await this.editorOf(file)?.handleMessage(raw);
    } catch (error) {
      this.deps.log.error(`The storyboard editor failed: ${describeError(error)}`);
    }
  }
}
