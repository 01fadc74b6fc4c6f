// Pinned by `npm run bench -- --only film`: seconds per minute of film and peak memory, against copying the same shots.
import {
  ALL_FORMATS,
  EncodedAudioPacketSource,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  Output,
  StreamSource,
  StreamTarget,
  TextSubtitleSource,
  type AudioCodec,
  type EncodedPacket,
  type InputAudioTrack,
  type InputVideoTrack,
  type StreamTargetChunk,
  type VideoCodec,
} from 'mediabunny';
import { t } from '../../../api/l10n';
import { filmCues, webVtt, type FilmCue } from './filmCaptions';

// One film from its shots, without ffmpeg: the shots' packets are copied into one MP4 (remuxed, never re-encoded),
// one after the other with continuous timestamps, with the captions as a WebVTT subtitle track. That is only valid
// when every shot fits the one sample description an MP4 track has: the same codec, the same codec configuration
// (for H.264 the same SPS/PPS in avcC, for HEVC hvcC…), the same coded size, rotation and colour; and for the sound,
// all shots with it or all without, the same codec, sample rate, channels and configuration. Otherwise the plan says
// which shot differs from the first, and how, in plain words; the caller keeps the shots and a playlist.
//
// Bytes go through two small ports, so the join runs in plain Node (tests, the benchmark) and in the extension host
// alike: a reader per shot (random access; mediabunny reads the header, then the packets as they are copied) and a
// writer for the film (positioned writes: the header is written into space reserved at the start, once the packets
// are in). Shots are read one at a time, packet by packet: memory stays bounded whatever the film's length.

/** Random access to one shot's bytes (a file the caller opened, or bytes in memory). */
export interface ByteReader {
  size(): Promise<number>;
  /** The bytes from `start` up to `end` (exclusive). */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** Where the film's bytes go. Closed once, when the film is complete or given up (the caller removes a partial file). */
export interface ByteWriter {
  write(data: Uint8Array, position: number): Promise<void>;
  close(): Promise<void>;
}

/** A reader over bytes already in memory. */
export function bytesReader(bytes: Uint8Array): ByteReader {
  return { size: async () => bytes.byteLength, read: async (start, end) => bytes.subarray(start, end) };
}

/** A writer into memory, growing as written (the film is then saved in one write, through any file system). */
export function bytesWriter(): ByteWriter & { bytes(): Uint8Array } {
  let buffer = new Uint8Array(1 << 20);
  let length = 0;
  return {
    write: async (data, position) => {
      const end = position + data.byteLength;
      if (end > buffer.byteLength) {
        const grown = new Uint8Array(Math.max(end, buffer.byteLength * 2));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(data, position);
      length = Math.max(length, end);
    },
    close: async () => undefined,
    bytes: () => buffer.subarray(0, length),
  };
}

export interface FilmShot {
  source: ByteReader;
  caption: string;
}

/** Where a shot stands in the film, from its file. */
export interface ShotTiming {
  /** Seconds from the start of the film. */
  start: number;
  /** The shot's real duration: its video track's, from the file. */
  seconds: number;
}

interface Common {
  shots: ShotTiming[];
  /** The film's length: the sum of the shots'. */
  seconds: number;
  cues: FilmCue[];
  /** The captions as a WebVTT file (for the `.vtt` beside the film, or the playlist). */
  vtt: string;
}

export type FilmPlan = (Common & { joinable: true; layout: JoinLayout }) | (Common & { joinable: false; reason: string });

/** What writing the film needs to know from the plan (opaque to callers). */
export interface JoinLayout {
  readonly facts: readonly ShotFacts[];
}

export interface JoinOptions {
  signal?: AbortSignal;
  /** After each shot is copied: how many shots and seconds of film are in. */
  onProgress?: (done: { shots: number; seconds: number }) => void;
}

export interface JoinedFilm {
  seconds: number;
  videoPackets: number;
  audioPackets: number;
  /** Sound packets left out: each shot's encoder priming and what overhangs its picture (at most one packet per joint). */
  audioPacketsLeftOut: number;
  bytes: number;
}

/** A sound packet may end this much after its shot's picture and still be kept (rounding of the timescales). */
const AUDIO_OVERHANG_SECONDS = 0.001;
/** The film is written in pieces of this size (the muxer holds at most two): few writes, little memory. */
const WRITE_CHUNK_BYTES = 1024 * 1024;
/** What the reader of one shot keeps in memory at most. */
const READ_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Reads each shot's header (its tracks, their configuration, durations, packet counts; never its media) and decides
 * whether the shots join by remuxing. The captions are timed by the real durations either way.
 */
export async function planFilm(shots: readonly FilmShot[], signal?: AbortSignal): Promise<FilmPlan> {
  if (shots.length === 0) throw new RangeError('A film needs at least one shot.');
  const facts: ShotFacts[] = [];
  let unreadable: string | undefined;
  for (const [index, shot] of shots.entries()) {
    signal?.throwIfAborted();
    const read = await readFacts(shot.source);
    if (typeof read === 'string') {
      unreadable ??= t('Shot {0} cannot be read as a video: {1}', index + 1, read);
      facts.push({ seconds: 0, firstTimestamp: 0, videoPackets: 0, audioPackets: 0, video: undefined, audio: undefined });
    } else facts.push(read);
  }
  const timings: ShotTiming[] = [];
  let start = 0;
  for (const fact of facts) {
    timings.push({ start, seconds: fact.seconds });
    start += fact.seconds;
  }
  const cues = filmCues(facts.map((fact, index) => ({ seconds: fact.seconds, caption: shots[index].caption })));
  const common: Common = { shots: timings, seconds: start, cues, vtt: webVtt(cues) };
  const reason = unreadable ?? differenceFromFirst(facts);
  return reason ? { ...common, joinable: false, reason } : { ...common, joinable: true, layout: { facts } };
}

/**
 * Writes the joined film: each shot's packets (video and sound interleaved by time) shifted to where the shot starts,
 * then the captions; the header goes into space reserved at the start (fast start: the film plays while it loads).
 * `shots` are those the plan was made of. Aborting `signal` stops between two packets and throws its reason.
 */
export async function writeFilm(
  shots: readonly FilmShot[],
  plan: Extract<FilmPlan, { joinable: true }>,
  target: ByteWriter,
  options: JoinOptions = {},
): Promise<JoinedFilm> {
  const { facts } = plan.layout;
  const first = facts[0];
  if (!first?.video || facts.length !== shots.length) throw new RangeError('The plan is not of these shots.');
  let bytes = 0;
  let closed = false;
  const closeOnce = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await target.close();
  };
  const writable = new WritableStream<StreamTargetChunk>({
    write: async (chunk) => {
      await target.write(chunk.data, chunk.position);
      bytes = Math.max(bytes, chunk.position + chunk.data.byteLength);
    },
    close: closeOnce,
    abort: closeOnce,
  });
  const output = new Output({
    format: new Mp4OutputFormat({ fastStart: 'reserve' }),
    target: new StreamTarget(writable, { chunked: true, chunkSize: WRITE_CHUNK_BYTES }),
  });
  const video = new EncodedVideoPacketSource(first.video.codec);
  output.addVideoTrack(video, {
    maximumPacketCount: sum(facts.map((fact) => fact.videoPackets)),
    ...(first.video.rotation ? { rotation: first.video.rotation } : {}),
  });
  const audio = first.audio ? new EncodedAudioPacketSource(first.audio.codec) : undefined;
  if (audio) output.addAudioTrack(audio, { maximumPacketCount: sum(facts.map((fact) => fact.audioPackets)) });
  const captions = new TextSubtitleSource('webvtt');
  output.addSubtitleTrack(captions, { maximumPacketCount: 2 * plan.cues.length + 1, name: 'Captions', languageCode: 'und' });

  const written: JoinedFilm = { seconds: plan.seconds, videoPackets: 0, audioPackets: 0, audioPacketsLeftOut: 0, bytes: 0 };
  try {
    await output.start();
    // The captions first, and closed: the muxer reserves the header's space once every track has begun.
    await captions.add(plan.vtt);
    captions.close();
    for (const [index, shot] of shots.entries()) {
      options.signal?.throwIfAborted();
      await copyShot(shot.source, facts[index], plan.shots[index].start, { video, audio, first: index === 0, written, signal: options.signal });
      options.onProgress?.({ shots: index + 1, seconds: plan.shots[index].start + plan.shots[index].seconds });
    }
    await output.finalize();
  } catch (error) {
    await output.cancel().catch(() => undefined);
    await closeOnce().catch(() => undefined);
    throw error;
  }
  await closeOnce();
  return { ...written, bytes };
}

/** Plans the film and, when the shots join, writes it to the target `open` gives (asked only then). */
export async function joinFilm(
  shots: readonly FilmShot[],
  open: () => Promise<ByteWriter>,
  options: JoinOptions = {},
): Promise<{ plan: FilmPlan; film?: JoinedFilm }> {
  const plan = await planFilm(shots, options.signal);
  if (!plan.joinable) return { plan };
  return { plan, film: await writeFilm(shots, plan, await open(), options) };
}

interface CopyState {
  video: EncodedVideoPacketSource;
  audio: EncodedAudioPacketSource | undefined;
  first: boolean;
  written: JoinedFilm;
  signal: AbortSignal | undefined;
}

async function copyShot(source: ByteReader, facts: ShotFacts, start: number, state: CopyState): Promise<void> {
  const input = openInput(source);
  try {
    const videoTrack = await input.getPrimaryVideoTrack();
    const audioTrack = state.audio ? await input.getPrimaryAudioTrack() : null;
    if (!videoTrack || !facts.video || (state.audio && (!audioTrack || !facts.audio)))
      throw new Error(t('A shot changed while the film was being joined: join it again.'));
    const shift = start - facts.firstTimestamp;
    const videoPackets = new EncodedPacketSink(videoTrack).packets();
    const audioPackets = audioTrack ? new EncodedPacketSink(audioTrack).packets() : undefined;
    let nextVideo = await videoPackets.next();
    let nextAudio = audioPackets ? await audioPackets.next() : undefined;
    let videoMeta = state.first ? { decoderConfig: facts.video.decoderConfig } : undefined;
    let audioMeta = state.first && facts.audio ? { decoderConfig: facts.audio.decoderConfig } : undefined;
    while (!nextVideo.done || (nextAudio && !nextAudio.done)) {
      state.signal?.throwIfAborted();
      const takeVideo = !nextVideo.done && (!nextAudio || nextAudio.done || nextVideo.value.timestamp <= nextAudio.value.timestamp);
      if (takeVideo && !nextVideo.done) {
        await state.video.add(shifted(nextVideo.value, shift), videoMeta);
        videoMeta = undefined;
        state.written.videoPackets++;
        nextVideo = await videoPackets.next();
      } else if (nextAudio && !nextAudio.done && audioPackets && state.audio) {
        const packet = nextAudio.value;
        const within = packet.timestamp - facts.firstTimestamp;
        // Before the picture: the encoder's priming; after it: sound the next shot's picture would overlap.
        if (within < 0 || within + packet.duration > facts.seconds + AUDIO_OVERHANG_SECONDS) state.written.audioPacketsLeftOut++;
        else {
          await state.audio.add(shifted(packet, shift), audioMeta);
          audioMeta = undefined;
          state.written.audioPackets++;
        }
        nextAudio = await audioPackets.next();
      }
    }
  } finally {
    input.dispose();
  }
}

function shifted(packet: EncodedPacket, shift: number): EncodedPacket {
  return packet.clone({ timestamp: packet.timestamp + shift });
}

function openInput(source: ByteReader): Input {
  return new Input({
    formats: ALL_FORMATS,
    source: new StreamSource({
      getSize: () => source.size(),
      read: (start, end) => source.read(start, end),
      maxCacheSize: READ_CACHE_BYTES,
      prefetchProfile: 'fileSystem',
    }),
  });
}

interface VideoFacts {
  codec: VideoCodec;
  decoderConfig: VideoDecoderConfig;
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  description: string;
  colorSpace: string;
}

interface AudioFacts {
  codec: AudioCodec;
  decoderConfig: AudioDecoderConfig;
  sampleRate: number;
  channels: number;
  description: string;
}

/** What a shot's header says: enough to decide the join and to write it (the media is read only when it is written). */
interface ShotFacts {
  seconds: number;
  firstTimestamp: number;
  videoPackets: number;
  audioPackets: number;
  video: VideoFacts | undefined;
  audio: AudioFacts | undefined;
}

async function readFacts(source: ByteReader): Promise<ShotFacts | string> {
  const input = openInput(source);
  try {
    const videoTrack = await input.getPrimaryVideoTrack();
    if (!videoTrack) return t('it has no video track');
    const video = await videoFacts(videoTrack);
    if (typeof video === 'string') return video;
    const audioTrack = await input.getPrimaryAudioTrack();
    const audio = audioTrack ? await audioFacts(audioTrack) : undefined;
    if (typeof audio === 'string') return audio;
    const firstTimestamp = await videoTrack.getFirstTimestamp();
    const seconds = (await videoTrack.computeDuration()) - firstTimestamp;
    return {
      seconds,
      firstTimestamp,
      videoPackets: await packetCount(videoTrack),
      audioPackets: audioTrack ? await packetCount(audioTrack) : 0,
      video,
      audio,
    };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    input.dispose();
  }
}

async function videoFacts(track: InputVideoTrack): Promise<VideoFacts | string> {
  const codec = track.codec;
  const decoderConfig = await track.getDecoderConfig();
  if (!codec || !decoderConfig) return t('its video codec is not one Promptreel knows');
  return {
    codec,
    decoderConfig,
    width: decoderConfig.codedWidth ?? track.codedWidth,
    height: decoderConfig.codedHeight ?? track.codedHeight,
    rotation: track.rotation,
    description: hexOf(decoderConfig.description),
    colorSpace: JSON.stringify(decoderConfig.colorSpace ?? {}),
  };
}

async function audioFacts(track: InputAudioTrack): Promise<AudioFacts | string> {
  const codec = track.codec;
  const decoderConfig = await track.getDecoderConfig();
  if (!codec || !decoderConfig) return t('its sound codec is not one Promptreel knows');
  return {
    codec,
    decoderConfig,
    sampleRate: decoderConfig.sampleRate,
    channels: decoderConfig.numberOfChannels,
    description: hexOf(decoderConfig.description),
  };
}

async function packetCount(track: InputVideoTrack | InputAudioTrack): Promise<number> {
  let count = 0;
  for await (const _packet of new EncodedPacketSink(track).packets(undefined, undefined, { metadataOnly: true })) count++;
  return count;
}

function hexOf(description: VideoDecoderConfig['description']): string {
  if (!description) return '';
  const bytes = ArrayBuffer.isView(description)
    ? new Uint8Array(description.buffer, description.byteOffset, description.byteLength)
    : new Uint8Array(description);
  return Buffer.from(bytes).toString('hex');
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The first way a shot differs from the first shot that a single MP4 track cannot hold, in plain words; or undefined. */
function differenceFromFirst(facts: readonly ShotFacts[]): string | undefined {
  const first = facts[0];
  if (!first.video) return undefined;
  for (const [index, shot] of facts.entries()) {
    if (index === 0 || !shot.video) continue;
    const n = index + 1;
    const reason = videoDifference(n, shot.video, first.video) ?? audioDifference(n, shot.audio, first.audio);
    if (reason) return reason;
  }
  return undefined;
}

function videoDifference(n: number, shot: VideoFacts, first: VideoFacts): string | undefined {
  if (shot.codec !== first.codec) return t('Shot {0} is {1} video and shot 1 is {2}.', n, codecName(shot), codecName(first));
  if (shot.width !== first.width || shot.height !== first.height)
    return t('Shot {0} is {1}×{2} and shot 1 is {3}×{4}.', n, shot.width, shot.height, first.width, first.height);
  if (shot.rotation !== first.rotation) return t('Shot {0} is turned by {1}° and shot 1 by {2}°.', n, shot.rotation, first.rotation);
  if (shot.decoderConfig.codec !== first.decoderConfig.codec) return t('Shot {0} is {1} and shot 1 is {2}.', n, codecName(shot), codecName(first));
  if (shot.description !== first.description) return t('Shot {0} was encoded with other {1} settings than shot 1.', n, codecName(shot, false));
  if (shot.colorSpace !== first.colorSpace) return t('Shot {0} has other colour settings than shot 1.', n);
  return undefined;
}

function audioDifference(n: number, shot: AudioFacts | undefined, first: AudioFacts | undefined): string | undefined {
  if (!shot && !first) return undefined;
  if (!shot) return t('Shot {0} has no sound and shot 1 has.', n);
  if (!first) return t('Shot {0} has sound and shot 1 has none.', n);
  if (shot.codec !== first.codec || shot.decoderConfig.codec !== first.decoderConfig.codec)
    return t('The sound of shot {0} is {1} and that of shot 1 is {2}.', n, shot.decoderConfig.codec, first.decoderConfig.codec);
  if (shot.sampleRate !== first.sampleRate) return t('The sound of shot {0} is at {1} Hz and that of shot 1 at {2} Hz.', n, shot.sampleRate, first.sampleRate);
  if (shot.channels !== first.channels) return t('The sound of shot {0} has {1} channels and that of shot 1 has {2}.', n, shot.channels, first.channels);
  if (shot.description !== first.description) return t('The sound of shot {0} was encoded with other settings than that of shot 1.', n);
  return undefined;
}

const VIDEO_CODEC_NAMES: Record<VideoCodec, string> = { avc: 'H.264', hevc: 'H.265', vp9: 'VP9', av1: 'AV1', vp8: 'VP8', prores: 'ProRes' };
const H264_PROFILES: Record<number, string> = { 66: 'Baseline', 77: 'Main', 88: 'Extended', 100: 'High', 110: 'High 10', 122: 'High 4:2:2', 244: 'High 4:4:4' };

/** `H.264 Main, level 2.1` from `avc1.4d4015`; other codecs by name and codec string. */
function codecName(facts: VideoFacts, withProfile = true): string {
  const name = VIDEO_CODEC_NAMES[facts.codec];
  if (!withProfile) return name;
  const avc = /^avc[13]\.([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(facts.decoderConfig.codec);
  if (!avc) return `${name} (${facts.decoderConfig.codec})`;
  const profile = H264_PROFILES[parseInt(avc[1], 16)] ?? `profile ${parseInt(avc[1], 16)}`;
  return `${name} ${profile}, level ${parseInt(avc[3], 16) / 10}`;
}
