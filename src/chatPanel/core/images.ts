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
