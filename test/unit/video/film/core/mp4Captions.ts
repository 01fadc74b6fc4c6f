import { spawnSync } from 'node:child_process';
import * as z from 'zod/mini';

// Reading a film's captions back, independently of the code that wrote them: mediabunny reads no subtitle track
// (its demuxer knows video and sound only), so this walks the MP4 boxes itself (ISO/IEC 14496-12 and 14496-30:
// a `text` track whose sample entry is `wvtt`, each sample a `vttc` box holding a `payl` with the cue's text, or an
// empty `vtte` for a gap); and ffprobe, where the machine has it, is asked the same.

export interface ReadCue {
  start: number;
  end: number;
  text: string;
}

interface Box {
  type: string;
  start: number;
  /** Where the content begins (after the header). */
  body: number;
  end: number;
}

function boxesIn(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= to;) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw new Error(`a broken ${type} box at ${at}`);
    boxes.push({ type, start: at, body: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

function child(bytes: Uint8Array, box: Box, type: string, skip = 0): Box | undefined {
  return boxesIn(bytes, box.body + skip, box.end).find((inner) => inner.type === type);
}

function path(bytes: Uint8Array, box: Box, ...types: string[]): Box | undefined {
  let current: Box | undefined = box;
  for (const type of types) current = current && child(bytes, current, type);
  return current;
}

/** The cues of the file's WebVTT track (`wvtt`), or undefined when it has none; `vtte` gaps are left out. */
export function readMp4Captions(bytes: Uint8Array): { cues: ReadCue[]; handler: string; language: string } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moov = boxesIn(bytes, 0, bytes.byteLength).find((box) => box.type === 'moov');
  if (!moov) throw new Error('no moov box');
  for (const trak of boxesIn(bytes, moov.body, moov.end).filter((box) => box.type === 'trak')) {
    const mdia = path(bytes, trak, 'mdia');
    const hdlr = mdia && child(bytes, mdia, 'hdlr');
    const stbl = mdia && path(bytes, mdia, 'minf', 'stbl');
    const stsd = stbl && child(bytes, stbl, 'stsd');
    // stsd: version/flags (4), entry count (4), then the sample entries.
    if (!hdlr || !stbl || !stsd || !child(bytes, stsd, 'wvtt', 8)) continue;
    const handler = String.fromCharCode(...bytes.subarray(hdlr.body + 8, hdlr.body + 12));
    const mdhd = child(bytes, mdia, 'mdhd')!;
    const version = bytes[mdhd.body];
    const timescale = view.getUint32(mdhd.body + (version === 1 ? 20 : 12));
    const packedLanguage = view.getUint16(mdhd.body + (version === 1 ? 32 : 20));
    const language = String.fromCharCode(((packedLanguage >> 10) & 31) + 0x60, ((packedLanguage >> 5) & 31) + 0x60, (packedLanguage & 31) + 0x60);

    const durations: number[] = [];
    const stts = child(bytes, stbl, 'stts')!;
    for (let entry = 0, count = view.getUint32(stts.body + 4); entry < count; entry++) {
      const samples = view.getUint32(stts.body + 8 + entry * 8);
      const delta = view.getUint32(stts.body + 12 + entry * 8);
      for (let i = 0; i < samples; i++) durations.push(delta);
    }
    const stsz = child(bytes, stbl, 'stsz')!;
    const fixedSize = view.getUint32(stsz.body + 4);
    const sizes = durations.map((_duration, index) => fixedSize || view.getUint32(stsz.body + 12 + index * 4));
    const chunkOffsets: number[] = [];
    const stco = child(bytes, stbl, 'stco');
    const co64 = child(bytes, stbl, 'co64');
    const offsets = (stco ?? co64)!;
    for (let entry = 0, count = view.getUint32(offsets.body + 4); entry < count; entry++)
      chunkOffsets.push(stco ? view.getUint32(offsets.body + 8 + entry * 4) : Number(view.getBigUint64(offsets.body + 8 + entry * 8)));
    const stsc = child(bytes, stbl, 'stsc')!;
    const runs: { firstChunk: number; perChunk: number }[] = [];
    for (let entry = 0, count = view.getUint32(stsc.body + 4); entry < count; entry++)
      runs.push({ firstChunk: view.getUint32(stsc.body + 8 + entry * 12), perChunk: view.getUint32(stsc.body + 12 + entry * 12) });

    const cues: ReadCue[] = [];
    let sample = 0;
    let time = 0;
    for (let chunk = 1; chunk <= chunkOffsets.length; chunk++) {
      const perChunk = [...runs].reverse().find((run) => run.firstChunk <= chunk)?.perChunk ?? 0;
      let offset = chunkOffsets[chunk - 1];
      for (let i = 0; i < perChunk && sample < sizes.length; i++, sample++) {
        const text = cueText(bytes.subarray(offset, offset + sizes[sample]));
        const duration = durations[sample] / timescale;
        if (text !== undefined) cues.push({ start: time, end: time + duration, text });
        time += duration;
        offset += sizes[sample];
      }
    }
    return { cues, handler, language };
  }
  return undefined;
}

/** The text of a WebVTT sample (`vttc` with its `payl`), undefined for a gap (`vtte`); plain text as it is. */
export function cueText(sample: Uint8Array): string | undefined {
  const boxes = sample.byteLength >= 8 ? safeBoxes(sample) : undefined;
  if (!boxes) return new TextDecoder().decode(sample);
  const vttc = boxes.find((box) => box.type === 'vttc');
  if (!vttc) return boxes.some((box) => box.type === 'vtte') ? undefined : new TextDecoder().decode(sample);
  const payl = child(sample, vttc, 'payl');
  return payl ? new TextDecoder().decode(sample.subarray(payl.body, payl.end)) : '';
}

function safeBoxes(bytes: Uint8Array): Box[] | undefined {
  try {
    const boxes = boxesIn(bytes, 0, bytes.byteLength);
    return boxes.every((box) => /^[a-z]{4}$/.test(box.type)) ? boxes : undefined;
  } catch {
    return undefined;
  }
}

export function hasFfprobe(): boolean {
  return spawnSync('ffprobe', ['-version'], { stdio: 'ignore' }).status === 0;
}

export interface ProbedFilm {
  duration: number;
  streams: { index: number; codecType: string; codecName?: string; codecTag: string; duration?: number; frames?: number }[];
  /** The packets of the `wvtt` stream, with their text. */
  captions: ReadCue[];
}

const probeSchema = z.object({
  format: z.optional(z.object({ duration: z.string() })),
  streams: z.optional(
    z.array(
      z.object({
        index: z.number(),
        codec_type: z.string(),
        codec_name: z.optional(z.string()),
        codec_tag_string: z.string(),
        duration: z.optional(z.string()),
        nb_frames: z.optional(z.string()),
      }),
    ),
  ),
  packets: z.optional(z.array(z.object({ pts_time: z.string(), duration_time: z.string(), data: z.optional(z.string()) }))),
});

/** What ffprobe says of a film: its duration, its streams, and the captions' packets (decoded from their bytes). */
export function ffprobeFilm(file: string): ProbedFilm {
  const run = (args: string[]): unknown => {
    const result = spawnSync('ffprobe', ['-v', 'error', '-of', 'json', ...args, file], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`ffprobe failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as unknown;
  };
  const described = probeSchema.parse(run(['-show_entries', 'format=duration:stream=index,codec_type,codec_name,codec_tag_string,duration,nb_frames']));
  const streams = (described.streams ?? []).map((stream) => ({
    index: stream.index,
    codecType: stream.codec_type,
    ...(stream.codec_name !== undefined ? { codecName: stream.codec_name } : {}),
    codecTag: stream.codec_tag_string,
    ...(stream.duration !== undefined ? { duration: Number(stream.duration) } : {}),
    ...(stream.nb_frames !== undefined ? { frames: Number(stream.nb_frames) } : {}),
  }));
  const captionStream = streams.find((stream) => stream.codecTag === 'wvtt');
  const captions: ReadCue[] = [];
  if (captionStream) {
    const packets =
      probeSchema.parse(run(['-select_streams', String(captionStream.index), '-show_entries', 'packet=pts_time,duration_time,data', '-show_data'])).packets ??
      [];
    for (const packet of packets) {
      const text = cueText(fromHexdump(packet.data ?? ''));
      const start = Number(packet.pts_time);
      if (text !== undefined) captions.push({ start, end: start + Number(packet.duration_time), text });
    }
  }
  return { duration: Number(described.format?.duration), streams, captions };
}

/** ffprobe's `-show_data` hexdump (`00000000: 0000 003f 7674 ...  text`) as bytes. */
function fromHexdump(dump: string): Uint8Array {
  const hex = dump
    .split('\n')
    .map((line) => /^[0-9a-f]{8}: ((?:[0-9a-f]{2,4} ?)+)/i.exec(line.trim())?.[1] ?? '')
    .join('')
    .replace(/\s+/g, '');
  return Uint8Array.from(hex.match(/../g) ?? [], (byte) => parseInt(byte, 16));
}
