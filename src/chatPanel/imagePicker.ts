import { CommandIds } from '../common/contributions';
import * as path from 'path';
import * as vscode from 'vscode';
import { IMAGE_EXTENSIONS, MAX_IMAGE_BYTES, imageDataUrl, imageMimeType } from './core/images';
import type { ImageAttachment } from './core/model';
import type { CapabilitiesView } from './webview/protocol';
import { t } from '../api/l10n';
import { showMessage } from '../workbench/showMessage';

interface ImageItem extends vscode.QuickPickItem {
  uri?: vscode.Uri;
}

/** For a model that takes images: the image the user picks. For another, a message that says how to declare it. */
export async function pickImageFor(capabilities: CapabilitiesView): Promise<ImageAttachment | undefined> {
  if (capabilities.vision) return pickImage();
  const message = capabilities.model
    ? t('{0} is not declared to accept images: set "vision": true for it in promptreel.models.capabilities.', capabilities.model)
    : t('This model is not declared to accept images: set "vision": true for it in promptreel.models.capabilities.');
  showMessage('info', message, [{ title: t('Open Settings'), command: CommandIds.openSettings, args: ['promptreel.models.capabilities'] }]);
  return undefined;
}

/** Lets the user pick an image file of the workspace (or browse for one) and reads it as a data URL. */
export async function pickImage(): Promise<ImageAttachment | undefined> {
  const uri = await chooseImage();
  if (!uri) return undefined;
  return readImage(uri);
}

export async function readImage(uri: vscode.Uri): Promise<ImageAttachment | undefined> {
  const name = path.basename(uri.path);
  const mimeType = imageMimeType(name);
  if (!mimeType) {
    showMessage('warning', t('{0} is not an image Promptreel can attach ({1}).', name, IMAGE_EXTENSIONS.join(', ')));
    return undefined;
  }
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MAX_IMAGE_BYTES) {
    showMessage('warning', t('{0} is {1} MB: attach an image of at most {2} MB.', name, (stat.size / 1024 / 1024).toFixed(1), MAX_IMAGE_BYTES / 1024 / 1024));
    return undefined;
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  return { name, mimeType, size: bytes.byteLength, dataUrl: imageDataUrl(mimeType, bytes) };
}

async function chooseImage(): Promise<vscode.Uri | undefined> {
  const files = vscode.workspace.workspaceFolders?.length
    ? await vscode.workspace.findFiles(`**/*.{${IMAGE_EXTENSIONS.join(',')}}`, '**/node_modules/**', 500)
    : [];
  const items: ImageItem[] = [
    ...files
      .map((uri) => ({ label: `$(file-media) ${path.basename(uri.path)}`, description: vscode.workspace.asRelativePath(uri, true), uri }))
      .sort((a, b) => a.description.localeCompare(b.description)),
    { label: t('$(folder-opened) Browse…'), alwaysShow: true },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: t('Promptreel: Attach Image'),
    placeHolder: files.length ? t('Pick an image of the workspace to send with your message') : t('No image in the workspace: browse for one'),
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const chosen = await vscode.window.showOpenDialog({
    title: t('Attach Image'),
    canSelectMany: false,
    filters: { [t('Images')]: IMAGE_EXTENSIONS },
    ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
  });
  return chosen?.[0];
}
