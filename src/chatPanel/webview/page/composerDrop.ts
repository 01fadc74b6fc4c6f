import type { WebviewToHost } from '../protocol';
import { t } from '../../../webviewPage/l10n';

/** The host's limit (core/images.ts): larger images are not even read. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface DropHost {
  post(message: WebviewToHost): void;
  /** Says something about the draft in the composer. */
  notify(text: string): void;
}

/**
 * Pasting a screenshot and dropping files on the composer. Files from VS Code's explorer (held with Shift, as VS Code
 * asks for drops into webviews) arrive as URIs for the host to read; images from the system arrive as bytes.
 */
export function acceptPasteAndDrop(target: HTMLElement, input: HTMLTextAreaElement, host: DropHost): void {
  input.addEventListener('paste', (event) => {
    const images = Array.from(event.clipboardData?.files ?? []).filter((file) => file.type.startsWith('image/'));
    if (!images.length) return;
    event.preventDefault();
    for (const file of images) void sendImage(file, host);
  });
  target.addEventListener('dragover', (event) => {
    if (!event.dataTransfer) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    target.classList.add('drop-target');
  });
  target.addEventListener('dragleave', () => target.classList.remove('drop-target'));
  target.addEventListener('drop', (event) => {
    target.classList.remove('drop-target');
    const data = event.dataTransfer;
    if (!data) return;
    const uris = uriList(data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list'));
    const files = Array.from(data.files);
    if (!uris.length && !files.length) return;
    event.preventDefault();
    if (uris.length) host.post({ type: 'dropUris', uris: uris.slice(0, 100) });
    else for (const file of files.filter((candidate) => candidate.type.startsWith('image/'))) void sendImage(file, host);
  });
}

function uriList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

async function sendImage(file: File, host: DropHost): Promise<void> {
  if (file.size > MAX_IMAGE_BYTES) {
    host.notify(t('The image is {0} MB: attach an image of at most {1} MB.', (file.size / 1024 / 1024).toFixed(1), MAX_IMAGE_BYTES / 1024 / 1024));
    return;
  }
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the image'));
    reader.readAsDataURL(file);
  });
  host.post({ type: 'addImageData', name: file.name || `pasted-image.${file.type.split('/')[1] ?? 'png'}`, mimeType: file.type, dataUrl });
}
