import { formatUsd } from '../api/account/prices';
import { CommandIds } from '../common/contributions';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { displayLocation, downloadedUri } from './downloadedFile';
import {
  contextValue,
  describeTask,
  displayState,
  displayStateName,
  elapsedOf,
  formatElapsed,
  isFollowedHere,
  isPending,
  taskLabel,
  type DisplayState,
} from './core/taskModel';
import { describeGroup, groupKey, type TaskEntry } from './core/taskGroups';
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

/** The tree item of a task; `downloaded`: its file is still there (see savedFile). */
export function buildTreeItem(record: VideoTaskRecord, now: number, service: string | undefined, downloaded: boolean): vscode.TreeItem {
  const state = displayState(record, downloaded);
  const here = isFollowedHere(record, service);
  const item = new vscode.TreeItem(taskLabel(record), vscode.TreeItemCollapsibleState.None);
  item.id = record.id;
  item.description = here
    ? describeTask(record, now)
    : record.service
      ? t('on {0}: not followed here', record.service)
      : t('on an unknown service: not followed here');
  item.iconPath = here ? ICONS[state] : new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('disabledForeground'));
  // Menus match `^videoTask:`: a task of another service gets only the ones for any task (copy, remove).
  item.contextValue = here ? contextValue(record, downloaded) : `videoTaskElsewhere:${record.state}`;
  item.tooltip = tooltip(record, state, now, here);
  item.accessibilityInformation = { label: `${taskLabel(record)}, ${displayStateName(state)}, ${describeTask(record, now)}` };
  if (downloaded) item.command = { command: CommandIds.video.open, title: t('Open Video'), arguments: [record.id] };
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
  item.accessibilityInformation = { label: t('Variants: {0}, {1}', group.label, describeGroup(group.tasks)) };
  return item;
}

/**
 * The hover of a task. Only our own field names are Markdown: every value (the service's status, id and errors, the
 * prompt, file names) is appended as text on its field's line, so none of it can make a link, an image or a line.
 */
/** `$0.40 (from the service's log of the key)`, with why it differs from the price when that can be told. */
export function chargedText(charged: { usd: number; reason?: string }): string {
  return charged.reason
    ? t("{0} (from the service's log of the key: {1})", formatUsd(charged.usd), charged.reason)
    : t("{0} (from the service's log of the key)", formatUsd(charged.usd));
}

function tooltip(record: VideoTaskRecord, state: DisplayState, now: number, here: boolean): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  const line = (name: string, value: string | undefined) => {
    if (value === undefined || value === '') return;
    markdown.appendMarkdown(`**${name}:** `);
    markdown.appendText(value.replace(/\s*[\r\n]+\s*/g, ' '));
    markdown.appendMarkdown('  \n');
  };
  const onOff = (value: boolean | undefined) => (value === undefined ? undefined : value ? t('on') : t('off'));
  line(t('Prompt'), record.prompt ?? t('(unknown: tracked by id)'));
  line(t('Service'), record.service);
  line(
    t('Followed'),
    here
      ? undefined
      : t('not in this window, which is set to another service: it is neither polled nor downloaded here. Set promptreel.baseUrl to its service to follow it.'),
  );
  line(t('State'), displayStateName(state, true));
  line(t('Status'), record.rawStatus);
  line(t('Progress'), record.progress !== undefined && record.state !== 'failed' ? `${record.progress}%` : undefined);
  line(t('Task ID'), record.state === 'unconfirmed' ? t('unknown (the answer was lost)') : record.id);
  line(t('Model'), record.model);
  const request = record.request;
  if (request) {
    const metadata = request.metadata ?? {};
    line(t('Duration'), request.seconds ? t('{0} s', request.seconds) : undefined);
    line(t('Resolution'), metadata.resolution);
    line(t('Aspect ratio'), metadata.ratio);
    line(t('Audio'), onOff(metadata.generate_audio));
    line(t('Watermark'), onOff(metadata.watermark));
    line(t('Seed'), metadata.seed === undefined ? t('none') : String(metadata.seed));
    line(t('Content review'), onOff(request.moderator));
    line(t('First frame'), request.firstFrame?.fileName);
  }
  line(t('Price'), record.priceUsd !== undefined ? formatUsd(record.priceUsd) : undefined);
  line(t('Charged'), record.charged ? chargedText(record.charged) : undefined);
  line(t('Variant'), record.group ? t('{0} of {1}', record.group.index + 1, record.group.count) : undefined);
  line(t('Created'), new Date(record.createdAt).toLocaleString());
  line(t('Finished'), record.finishedAt !== undefined ? new Date(record.finishedAt).toLocaleString() : undefined);
  line(record.finishedAt !== undefined ? t('Took') : t('Elapsed'), formatElapsed(elapsedOf(record, now)));
  line(t('Last checked'), record.lastPolledAt !== undefined ? new Date(record.lastPolledAt).toLocaleTimeString() : undefined);
  line(t('Failure'), record.state === 'failed' ? (record.error ?? t('the service gave no reason')) : undefined);
  line(t('Last poll error'), record.lastPollError);
  line(t('Video address'), record.videoUrl ? withoutQuery(record.videoUrl) : undefined);
  const saved = downloadedUri(record);
  line(t('Saved to'), saved ? (state === 'downloaded' ? displayLocation(saved) : t('{0} (the file is gone)', displayLocation(saved))) : undefined);
  if (record.source)
    line(t('From'), `${path.basename(vscode.Uri.parse(record.source.uri).fsPath)}:${record.source.startLine + 1}-${record.source.endLine + 1}`);
  return markdown;
}

/** Signed addresses carry credentials in the query string. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return t('(not a valid address)');
  }
}
