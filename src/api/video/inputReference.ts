import type { FormData } from 'undici';
import { ApiError } from '../errors';
import { invalidRequestMessage } from '../invalidRequest';
import { t } from '../l10n';
import { undici } from '../undici/load';
import type { VideoInputReference } from './task';

// The image a video starts from (OpenAI's video API: `input_reference`, a file part of a multipart/form-data request).

/** The image types video gateways take as a first frame, by file extension. */
export const FIRST_FRAME_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

/** Larger images are refused before anything is sent: gateways cap uploads well below this. */
export const MAX_FIRST_FRAME_BYTES = 20 * 1024 * 1024;

/** The content type of an image file by its name, or undefined when it is not one a first frame can be. */
export function firstFrameType(fileName: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension ? FIRST_FRAME_TYPES[extension] : undefined;
}

/** Checked before sending, like the rest of the request: an empty, huge or non-image file is never uploaded (or charged). */
export function validateInputReference(reference: VideoInputReference): VideoInputReference {
  const problem = !Object.values(FIRST_FRAME_TYPES).includes(reference.contentType)
    ? t('{0} is not an image type a first frame can be (PNG, JPEG or WebP)', reference.contentType || t('no content type'))
    : reference.bytes.byteLength === 0
      ? t('the image file is empty')
      : reference.bytes.byteLength > MAX_FIRST_FRAME_BYTES
        ? t(
            'the image is {0} MB, more than the {1} MB Promptreel uploads',
            (reference.bytes.byteLength / (1024 * 1024)).toFixed(1),
            MAX_FIRST_FRAME_BYTES / (1024 * 1024),
          )
        : !reference.fileName.trim()
          ? t('the image has no file name')
          : undefined;
  if (!problem) return reference;
  throw new ApiError({
    kind: 'invalid-request',
    param: 'input_reference',
    message: invalidRequestMessage(t('video request'), `input_reference: ${problem}`, t('Nothing was sent.')),
    hint: t('Pick a PNG, JPEG or WebP image for the first frame.'),
  });
}

/**
 * The create request as OpenAI's video API takes an image: `model`, `prompt` and `seconds` as text fields (`seconds`
 * a string, as new-api gateways want), `moderator` as `true`/`false`, `metadata` as JSON text, and the image as the
 * file part `input_reference` with its name and content type.
 */
export function videoForm(body: Record<string, unknown>, reference: VideoInputReference): FormData {
  const form = new (undici().FormData)();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  form.append('input_reference', new Blob([new Uint8Array(reference.bytes)], { type: reference.contentType }), reference.fileName);
  return form;
}
