import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { ViewIds } from '../../common/contributions';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { describeError } from '../../common/logger';
import { webviewOptions } from '../../workbench/webview/webviewPanels';
import { showMessage } from '../../workbench/showMessage';
import type { ShootWhich } from './core/filmRequests';
import type { Storyboard } from './core/storyboard';
import { FilmAssembly } from './filmAssembly';
import type { FirstFrame, VideoTaskRecord } from '../core/videoTaskRecord';
import { saveFrame, ShotVideos } from './shotVideos';
import { readFilm, saveFilm } from './filmFiles';
import { shootFilm, type ShootOutcome } from './filmShoot';
import { filmStateSchema } from './protocol';
import { FilmEditorHost, type FilmActions, type FilmEditorDeps } from './filmEditorHost';

interface OpenEditor {
  panel: vscode.WebviewPanel;
  host: FilmEditorHost;
}

/** The open storyboard editors, one per film file; and the shooting of each film, which outlives its editor. */
export class FilmEditors extends Disposable {
  private readonly open = new Map<string, OpenEditor>();
  /** The films being shot, by their file: Stop aborts. */
  private readonly shooting = new Map<string, AbortController>();
  private readonly shots: ShotVideos;
  /** Makes each film shot here of its shots once they are downloaded. */
  readonly assembly: FilmAssembly;
  private readonly actions: FilmActions = {
    shoot: (file, which) => this.shoot(file, which),
    stop: (file) => this.shooting.get(file.toString())?.abort(),
    isShooting: (file) => this.shooting.has(file.toString()),
  };

  constructor(private readonly deps: FilmEditorDeps) {
    super();
    this._register(toDisposable(() => [...this.open.values()].forEach((editor) => editor.panel.dispose())));
    this._register(toDisposable(() => [...this.shooting.values()].forEach((controller) => controller.abort())));
    this.shots = new ShotVideos(deps.store, deps.downloader);
    this.assembly = this._register(
      new FilmAssembly({
        store: deps.store,
        log: deps.log,
        read: (file) => this.storyboardOf(file),
        record: async (file, output) => {
          await this.update(file, (storyboard) => ({ ...storyboard, output }));
        },
        download: (id) => this.shots.download(id),
      }),
    );
  }

  /**
   * Opens (or reveals) the editor of a film file; undefined when the file is not a storyboard (the user is told why).
   * `background`: opened without taking the focus (to take a shot's last frame while the user works elsewhere).
   */
  async openFile(file: vscode.Uri, background = false): Promise<FilmEditorHost | undefined> {
    const existing = this.open.get(file.toString());
    if (existing) {
      if (!background) existing.panel.reveal();
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
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: background },
      webviewOptions(this.deps.extensionUri),
    );
    return this.attach(panel, file, read.storyboard);
  }

  /**
   * A storyboard editor VS Code brings back after a window reload: it opens its file again (as the file is now), or
   * closes when the file is gone, is no longer a storyboard, or is open in another editor already.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = filmStateSchema.safeParse(state);
    const file = saved.success ? uriOf(saved.data.file) : undefined;
    const read = file && !this.open.has(file.toString()) ? await readFilm(file) : undefined;
    if (!file || !read?.ok) {
      this.deps.log.info(file ? `The storyboard editor of ${file.toString()} was not restored.` : 'A storyboard editor was not restored.');
      panel.dispose();
      return;
    }
    panel.webview.options = webviewOptions(this.deps.extensionUri);
    panel.title = t('Storyboard: {0}', read.storyboard.name);
    this.attach(panel, file, read.storyboard);
  }

  private attach(panel: vscode.WebviewPanel, file: vscode.Uri, storyboard: Storyboard): FilmEditorHost {
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'promptreel.svg');
    const host = new FilmEditorHost(panel.webview, this.deps, file, storyboard, this.actions);
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

  /** The film's storyboard as it is now (the open editor's, or the file's). */
  private async storyboardOf(file: vscode.Uri): Promise<Storyboard | undefined> {
    const editor = this.editorOf(file);
    if (editor) return editor.film;
    const read = await readFilm(file);
    return read.ok ? read.storyboard : undefined;
  }

  /** Changes the film through its open editor, or in its file. */
  private async update(file: vscode.Uri, change: (storyboard: Storyboard) => Storyboard): Promise<void> {
    const editor = this.editorOf(file);
    if (editor) {
      await editor.apply(change);
      return;
    }
    const read = await readFilm(file);
    if (read.ok) await saveFilm(file, change(read.storyboard));
  }

  private async shoot(file: vscode.Uri, which: ShootWhich): Promise<ShootOutcome> {
    const key = file.toString();
    const storyboard = await this.storyboardOf(file);
    if (this.shooting.has(key) || !storyboard) return { kind: 'nothing' };
    const controller = new AbortController();
    this.shooting.set(key, controller);
    await this.editorOf(file)?.refresh();
    try {
      const groupId = storyboard.shots.map((shot) => shot.taskId && this.deps.store.get(shot.taskId)?.group?.id).find((id) => id);
      const outcome = await shootFilm(this.deps, { file, storyboard }, which, {
        recordTask: (shotId, task) => this.update(file, (now) => withTask(now, shotId, task)),
        lastFrame: (shotId, signal) => this.lastFrame(file, shotId, signal),
        stop: controller.signal,
        ...(which.kind !== 'film' && groupId ? { groupId } : {}),
      });
      if ((outcome.kind === 'shot' || outcome.kind === 'stopped') && outcome.tasks.length > 0) this.assembly.watch(file);
      return outcome;
    } finally {
      this.shooting.delete(key);
      await this.editorOf(file)?.refresh();
    }
  }

  /**
   * The last frame of a shot of the film, once its task is made and its video downloaded: drawn by the film's editor
   * (opened in the background if it was closed), checked, and saved beside the storyboard
   * (`<stem>.frames/<task>/<shot>.png`) as the next shot's first frame.
   */
  private async lastFrame(file: vscode.Uri, shotId: string, signal: AbortSignal): Promise<FirstFrame> {
    const storyboard = await this.storyboardOf(file);
    const index = storyboard?.shots.findIndex((shot) => shot.id === shotId) ?? -1;
    const taskId = storyboard?.shots[index]?.taskId;
    if (!taskId) throw new Error(t('Shot {0} has no video yet.', index + 1));
    const video = await this.shots.videoOf(taskId, index + 1, signal);
    const editor = await this.openFile(file, true);
    if (!editor) throw new Error(t('The storyboard could not be opened to take the last frame of shot {0}.', index + 1));
    // A hidden page is not running (its messages are lost): shown again without the focus, it loads and is asked again.
    const panel = this.panelOf(file);
    if (panel && !panel.visible) panel.reveal(panel.viewColumn, true);
    const frame = await editor.takeFrame(video, signal);
    this.deps.log.info(`Took the last frame of shot ${index + 1} (${frame.width}×${frame.height}).`);
    return saveFrame(file, { id: shotId, taskId }, frame.bytes);
  }
}

/** The film with `task` made for the shot `shotId`: its id and the price its confirmation gave it. */
function withTask(storyboard: Storyboard, shotId: string, task: VideoTaskRecord): Storyboard {
  return {
    ...storyboard,
    shots: storyboard.shots.map((shot) => {
      if (shot.id !== shotId) return shot;
      const { chargedUsd: _charged, priceUsd: _price, ...rest } = shot;
      return { ...rest, taskId: task.id, ...(task.priceUsd !== undefined ? { priceUsd: task.priceUsd } : {}) };
    }),
  };
}

function uriOf(text: string): vscode.Uri | undefined {
  try {
    return vscode.Uri.parse(text, true);
  } catch {
    return undefined;
  }
}
