import { t } from '../../api/l10n';

/** Image files a user may attach, by extension. */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const IMAGE_EXTENSIONS = Object.keys(IMAGE_TYPES);

/** Larger images make the request (and the stored conversation) heavy, and services refuse them anyway. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export function imageMimeType(fileName: string): string | undefined {
  const extension = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension ? IMAGE_TYPES[extension] : undefined;
}

export function imageDataUrl(mimeType: string, bytes: Uint8Array): string {
  return `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}`;
}

const ALLOWED_MIME_TYPES = new Set(Object.values(IMAGE_TYPES));

/**
 * An image the page read from the clipboard or a drop, or one of an imported chat, checked: a type Promptreel sends,
 * base64 that decodes, within the size limit. A string says what is wrong.
 */
export function imageFromDataUrl(name: string, mimeType: string, dataUrl: string): ImageAttachmentInput | string {
  const match = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUrl);
  if (!match || match[1] !== mimeType) return t('The data is not an image.');
  if (!ALLOWED_MIME_TYPES.has(mimeType)) return t('{0} images cannot be sent: use PNG, JPEG, GIF or WebP.', mimeType);
  const base64 = match[2]!;
  const size = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  if (size === 0) return t('The image is empty.');
  if (size > MAX_IMAGE_BYTES)
    return t('The image is {0} MB: attach an image of at most {1} MB.', (size / 1024 / 1024).toFixed(1), MAX_IMAGE_BYTES / 1024 / 1024);
  const extension = Object.entries(IMAGE_TYPES).find(([, type]) => type === mimeType)?.[0] ?? 'png';
  // Path separators and the characters file systems refuse: the name is shown and may become a file name.
  // eslint-disable-next-line no-control-regex
  const safeName = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || `pasted-image.${extension}`;
  return { name: safeName, mimeType, size, dataUrl };
}

export interface ImageAttachmentInput {
  name: string;
  mimeType: string;
  size: number;
  dataUrl: string;
}
