// The last frame of a shot as the storyboard editor's page sends it (a PNG in base64, drawn from a <video>): checked
// here before it is saved and sent as the next shot's first frame.

/** A frame larger than this is not a frame of a generated clip (a 4K PNG is a few MB). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** The longest base64 text of a frame within MAX_FRAME_BYTES. */
export const MAX_FRAME_BASE64 = Math.ceil(MAX_FRAME_BYTES / 3) * 4;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type FramePng = { ok: true; bytes: Uint8Array; width: number; height: number } | { ok: false; problem: string };

/** The PNG's bytes and size, or what is wrong with it (English: it goes to the log and into an error's text). */
export function parseFramePng(base64: string): FramePng {
  if (base64.length > MAX_FRAME_BASE64) return { ok: false, problem: `the frame is larger than ${MAX_FRAME_BYTES} bytes` };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return { ok: false, problem: 'the frame is not base64' };
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  } catch {
    return { ok: false, problem: 'the frame is not base64' };
  }
  // Signature, then the IHDR chunk first: its length (13), its type, width and height (big-endian).
  if (bytes.length < 33 || PNG_SIGNATURE.some((byte, index) => bytes[index] !== byte)) return { ok: false, problem: 'the frame is not a PNG image' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return { ok: false, problem: 'the PNG image has no header' };
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0) return { ok: false, problem: 'the PNG image is empty' };
  return { ok: true, bytes, width, height };
}
