import * as path from 'node:path';
import * as vscode from 'vscode';
import { displayLocation, downloadedUri } from './downloadedFile';
import { contextValue, describeTask, displayState, elapsedOf, formatElapsed, isFollowedHere, isPending, taskLabel, type DisplayState } from './core/taskModel';
import { describeGroup, groupKey, type TaskEntry } from './core/taskGroups';
import { VideoCommandIds } from './videoCommandIds';
import type { VideoTaskRecord } from './core/videoTaskRecord';

const ICONS: Record<DisplayState, vscode.ThemeIcon> = {
  queued: new vscode.ThemeIcon('clock', new vscode.ThemeColor('charts.yellow')),
  running: new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.blue')),
  completed: new vscode.ThemeIcon('check', new vscode.ThemeColor('testing.iconPassed')),
  downloaded: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('charts.green')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  stale: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  unconfirmed: new vscode.ThemeIcon('question', new vscode.ThemeColor('list.warningForeground')),
};

const STATE_NAMES: Record<DisplayState, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  downloaded: 'Downloaded',
  failed: 'Failed',
  stale: 'Stale (still pending after the limit; no longer polled)',
  unconfirmed: "Answer lost: the task may exist on the service (and be charged). Track it by its id from the service's console, or remove this entry.",
};

/** The tree item of a task; `downloaded`: its file is still there (see isDownloaded). */
export function buildTreeItem(record: VideoTaskRecord, now: number, service: string | undefined, downloaded: boolean): vscode.TreeItem {
  const state = displayState(record, downloaded);
  const here = isFollowedHere(record, service);
  const item = new vscode.TreeItem(taskLabel(record), vscode.TreeItemCollapsibleState.None);
  item.id = record.id;
  item.description = here ? describeTask(record, now) : `on ${record.service ?? 'an unknown service'}: not followed here`;
  item.iconPath = here ? ICONS[state] : new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('disabledForeground'));
  // Menus match `^videoTask:`: a task of another service gets only the ones for any task (copy, remove).
  item.contextValue = here ? contextValue(record, downloaded) : `videoTaskElsewhere:${record.state}`;
  item.tooltip = tooltip(record, state, now, here);
  item.accessibilityInformation = { label: `${taskLabel(record)}, ${STATE_NAMES[state]}, ${describeTask(record, now)}` };
  if (downloaded) item.command = { command: VideoCommandIds.open, title: 'Open Video', arguments: [record.id] };
  return item;
}

/** A group of variants: its label, how its tasks stand, expanded. */
export function buildGroupItem(group: Extract<TaskEntry, { kind: 'group' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(group.label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = groupKey(group.id);
  item.description = describeGroup(group.tasks);
  item.iconPath = new vscode.ThemeIcon(group.tasks.some(isPending) ? 'versions' : 'layers', new vscode.ThemeColor('charts.purple'));
  item.contextValue = 'videoGroup';
  item.tooltip = `${group.label}\n${describeGroup(group.tasks)}`;
  item.accessibilityInformation = { label: `Variants: ${group.label}, ${describeGroup(group.tasks)}` };
  return item;
}

function tooltip(record: VideoTaskRecord, state: DisplayState, now: number, here: boolean): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  const line = (name: string, value: string | undefined, code = false) => {
    if (value === undefined || value === '') return;
    markdown.appendMarkdown(`**${name}:** `);
    if (code) markdown.appendMarkdown(`\`${value.replace(/`/g, "'")}\``);
    else markdown.appendText(value);
    markdown.appendMarkdown('  \n');
  };
  line('Prompt', record.prompt ?? '(unknown: tracked by id)');
  line('Service', record.service);
  line(
    'Followed',
    here
      ? undefined
      : 'not in this window, which is set to another service: it is neither polled nor downloaded here. Set promptreel.baseUrl to its service to follow it.',
  );
  line('State', STATE_NAMES[state]);
  line('Status', record.rawStatus, true);
  line('Progress', record.progress !== undefined && record.state !== 'failed' ? `${record.progress}%` : undefined);
  line('Task ID', record.state === 'unconfirmed' ? 'unknown (the answer was lost)' : record.id, record.state !== 'unconfirmed');
  line('Model', record.model);
  const request = record.request;
  if (request) {
    const metadata = request.metadata ?? {};
    line('Duration', request.seconds ? `${request.seconds} s` : undefined);
    line('Resolution', metadata.resolution);
    line('Aspect ratio', metadata.ratio);
    line('Audio', metadata.generate_audio === undefined ? undefined : metadata.generate_audio ? 'on' : 'off');
    line('Watermark', metadata.watermark === undefined ? undefined : metadata.watermark ? 'on' : 'off');
    line('Seed', metadata.seed === undefined ? 'none' : String(metadata.seed));
    line('Content review', request.moderator === undefined ? undefined : request.moderator ? 'on' : 'off');
    line('First frame', request.firstFrame?.fileName);
  }
  line('Variant', record.group ? `${record.group.index + 1} of ${record.group.count}` : undefined);
  line('Created', new Date(record.createdAt).toLocaleString());
  line('Finished', record.finishedAt !== undefined ? new Date(record.finishedAt).toLocaleString() : undefined);
  line(record.finishedAt !== undefined ? 'Took' : 'Elapsed', formatElapsed(elapsedOf(record, now)));
  line('Last checked', record.lastPolledAt !== undefined ? new Date(record.lastPolledAt).toLocaleTimeString() : undefined);
  line('Failure', record.state === 'failed' ? (record.error ?? 'the service gave no reason') : undefined);
  line('Last poll error', record.lastPollError);
  line('Video address', record.videoUrl ? withoutQuery(record.videoUrl) : undefined);
  const saved = downloadedUri(record);
  line('Saved to', saved ? `${displayLocation(saved)}${state === 'downloaded' ? '' : ' (the file is gone)'}` : undefined);
  if (record.source) line('From', `${path.basename(vscode.Uri.parse(record.source.uri).fsPath)}:${record.source.startLine + 1}-${record.source.endLine + 1}`);
  return markdown;
}

/** Signed addresses carry credentials in the query string. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '(not a valid address)';
  }
}
