import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import { Disposable } from '../../common/lifecycle';
import { Emitter } from '../../common/emitter';
import { describeError, type ComponentLogger } from '../../common/logger';
import { showMessage } from '../../workbench/showMessage';
import type { VideoTaskStore } from '../core/taskStore';
import { savedFile } from '../downloadedFile';
import { bytesReader, bytesWriter, joinFilm } from './core/filmJoin';
import { filmPlaylist, playlistJson } from './core/filmPlaylist';
import type { FilmOutput, Storyboard } from './core/storyboard';

// Once every shot of a film is downloaded, the film is made of them: one MP4 (remuxed, with the captions as a track)
// and its `.vtt` beside the storyboard; or, when the shots do not join, the shots copied beside it with a playlist
// and the reason. What was made is recorded in the storyboard (`output`).

export interface FilmAssemblyDeps {
  store: VideoTaskStore;
  log: ComponentLogger;
  /** The film's storyboard as it is now (the open editor's, or the file's). */
  read(file: vscode.Uri): Promise<Storyboard | undefined>;
  /** Records what was made in the storyboard (through the open editor when there is one). */
  record(file: vscode.Uri, output: FilmOutput): Promise<void>;
  /** Downloads a completed shot's video that is not downloaded yet (a film needs its files, whatever autoDownload says). */
  download(id: string): Promise<unknown>;
}

export interface AssembledFilm {
  file: vscode.Uri;
  output: FilmOutput;
}

export class FilmAssembly extends Disposable {
  /** Films shot and not assembled yet, by their storyboard's URI. */
  private readonly waiting = new Map<string, vscode.Uri>();
  private readonly busy = new Set<string>();
  /** Each waiting film's shot tasks as last read: while one has no downloaded file, a change of the list reads nothing. */
  private readonly shotTasks = new Map<string, readonly string[]>();
  private readonly assembled = this._register(new Emitter<AssembledFilm>());
  /** A film was assembled (tests wait for it). */
  readonly onDidAssemble = this.assembled.event;

  constructor(private readonly deps: FilmAssemblyDeps) {
    super();
    this._register(deps.store.onDidChange(() => void this.check()));
  }

  /** Assembles the film once all its shots are downloaded. */
  watch(file: vscode.Uri): void {
    this.waiting.set(file.toString(), file);
    this.shotTasks.delete(file.toString());
    void this.check();
  }

  private async check(): Promise<void> {
    for (const [key, file] of this.waiting) {
      this.fetchShots(key);
      if (this.busy.has(key) || this.stillDownloading(key)) continue;
      this.busy.add(key);
      try {
        const storyboard = await this.deps.read(file);
        const taskIds = storyboard?.shots.flatMap((shot) => (shot.taskId ? [shot.taskId] : [])) ?? [];
        if (storyboard && taskIds.length === storyboard.shots.length) {
          this.shotTasks.set(key, taskIds);
          this.fetchShots(key);
        }
        const shots = storyboard && (await this.downloadedShots(storyboard));
        if (!storyboard || !shots) continue;
        this.waiting.delete(key);
        this.shotTasks.delete(key);
        const output = await this.assemble(file, storyboard, shots);
        if (output) {
          await this.deps.record(file, output);
          this.assembled.fire({ file, output });
        }
      } catch (error) {
        this.deps.log.error(`Assembling the film ${file.toString()} failed: ${describeError(error)}`);
        showMessage('error', t('The film could not be made of its shots: {0}', describeError(error)));
      } finally {
        this.busy.delete(key);
      }
    }
  }

  /** Downloads the film's completed shots that are not downloaded yet. */
  private fetchShots(key: string): void {
    for (const id of this.shotTasks.get(key) ?? []) {
      const task = this.deps.store.get(id);
      if (task?.state === 'completed' && !task.downloadedUri && !task.downloadedPath) void this.deps.download(id);
    }
  }

  private stillDownloading(key: string): boolean {
    return this.shotTasks.get(key)?.some((id) => !this.deps.store.get(id)?.downloadedPath) ?? false;
  }

  /** Each shot's downloaded file, in order; undefined while one is missing. */
  private async downloadedShots(storyboard: Storyboard): Promise<vscode.Uri[] | undefined> {
    const files: vscode.Uri[] = [];
    for (const shot of storyboard.shots) {
      const task = shot.taskId ? this.deps.store.get(shot.taskId) : undefined;
      const file = task && (await savedFile(task));
      if (!file) return undefined;
      files.push(file);
    }
    return files;
  }

  private async assemble(file: vscode.Uri, storyboard: Storyboard, shots: vscode.Uri[]): Promise<FilmOutput | undefined> {
    const folder = vscode.Uri.joinPath(file, '..');
    const stem = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.json$/, '');
    // Through vscode.workspace.fs, so a remote or virtual workspace makes its film too: each shot is read whole and
    // the film made in memory (a film is a few shots of seconds each), then saved in one write.
    const sources = [];
    for (const [index, shot] of shots.entries())
      sources.push({ source: bytesReader(await vscode.workspace.fs.readFile(shot)), caption: storyboard.shots[index].caption });
    const target = bytesWriter();
    const { plan } = await joinFilm(sources, async () => target);
    const video = await freeName(folder, stem, '.mp4');
    if (plan.joinable) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, video), target.bytes());
    const captions = await freeName(folder, stem, '.vtt');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, captions), new TextEncoder().encode(plan.vtt));
    if (plan.joinable) {
      this.deps.log.info(`Film ${storyboard.name}: ${storyboard.shots.length} shots joined into ${video} (${plan.seconds.toFixed(1)} s).`);
      return { video, captions };
    }
    // The shots are copied beside the playlist: its files stay relative to it, wherever the downloads went.
    const shotsFolder = await freeName(folder, stem, '.shots');
    const names = storyboard.shots.map((shot) => `${shotsFolder}/${shot.id}.mp4`);
    for (const [index, shot] of shots.entries()) await vscode.workspace.fs.copy(shot, vscode.Uri.joinPath(folder, ...names[index].split('/')));
    const playlist = await freeName(folder, stem, '.playlist.json');
    const content = playlistJson(filmPlaylist(storyboard.name, plan, names, captions));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, playlist), new TextEncoder().encode(content));
    this.deps.log.info(`Film ${storyboard.name}: the shots do not join (${plan.reason}); playlist ${playlist}.`);
    showMessage(
      'warning',
      joinSentences(
        t('The shots of "{0}" cannot be joined into one file: {1}', storyboard.name, plan.reason),
        t('They are kept beside the storyboard, with a playlist: {0}.', playlist),
      ),
    );
    return { playlist, reason: plan.reason, captions };
  }
}

/** `<stem><ending>`, or `<stem>-2<ending>`…: a name nothing in `folder` has. */
async function freeName(folder: vscode.Uri, stem: string, ending: string): Promise<string> {
  for (let index = 1; index < 100; index++) {
    const name = index === 1 ? `${stem}${ending}` : `${stem}-${index}${ending}`;
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, name));
    } catch {
      return name;
    }
  }
  throw new Error(t('Every name for {0} is taken.', `${stem}${ending}`));
}
