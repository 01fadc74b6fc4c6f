import { randomBytes } from 'node:crypto';

const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumerics(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  // 248 = 4 * 62: a byte at or above it would bias the first characters, so it is mapped with a fresh byte.
  for (let i = 0; i < length; i++) {
    let byte = bytes[i];
    while (byte >= 248) byte = randomBytes(1)[0];
    text += alphanumerics[byte % alphanumerics.length];
  }
  return text;
}

export function newTaskId(): string {
  return `task_${randomAlphanumerics(24)}`;
}

export function newChatCompletionId(): string {
  return `chatcmpl-${randomAlphanumerics(29)}`;
}

export function newToolCallId(): string {
  return `call_${randomAlphanumerics(24)}`;
}

/** new-api style: a timestamp to the millisecond followed by random characters, e.g. 20251122073012345aB3dE9fQ. */
export function newRequestId(now = new Date()): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const stamp =
    `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}` +
    `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}${pad(now.getMilliseconds(), 3)}`;
  return stamp + randomAlphanumerics(8);
}

export function unixSeconds(ms = Date.now()): number {
  return Math.floor(ms / 1000);
}
