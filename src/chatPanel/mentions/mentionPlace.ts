import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { isRefusal, type WorkspaceBoundary } from '../../workspace/workspaceBoundary';
import type { DocumentSource } from './fileMentions';
import { MentionError } from './mentionError';

/**
 * What a mention of a URI reads: its place in the workspace as the boundary decides it, or an open document that is
 * no file (an untitled editor). Anything else throws a MentionError saying why (outside the workspace, a link out of
 * it). Files the settings or `.gitignore` hide can be mentioned: the user chose them.
 */
export async function mentionSource(boundary: WorkspaceBoundary, uri: vscode.Uri): Promise<DocumentSource> {
  if (uri.scheme === 'untitled') {
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
    if (document) return document;
  }
  const place = await boundary.locate(uri);
  if (!isRefusal(place)) return place;
  switch (place.refused) {
    case 'noFolder':
    case 'outside':
      throw new MentionError(t('{0} is outside the workspace folders: only their files can be mentioned.', place.label));
    case 'link':
      throw new MentionError(
        place.link === place.label
          ? t('{0} is a link to a place outside the workspace folders, so it cannot be mentioned.', place.label)
          : t('{0} is inside {1}, a link to a place outside the workspace folders, so it cannot be mentioned.', place.label, place.link ?? ''),
      );
    case 'absent':
      throw new MentionError(t('{0} was not found in the workspace.', place.label));
  }
}

/** Whether a URI can be mentioned (the popup offers only those). */
export async function isMentionable(boundary: WorkspaceBoundary, uri: vscode.Uri): Promise<boolean> {
  return mentionSource(boundary, uri).then(
    () => true,
    () => false,
  );
}
