import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input, type InputTrack } from 'mediabunny';
import { bytesReader, bytesWriter, joinFilm, planFilm, writeFilm, type ByteWriter, type FilmShot } from '../../../../../src/video/film/core/filmJoin';
import { filmPlaylist, parseFilmPlaylist, playlistJson, playlistM3u } from '../../../../../src/video/film/core/filmPlaylist';
import { createDiskFile, openDiskFile } from '../../../support/diskPorts';
import type { FilmClip } from '../../../../service';
import { clientFor, useLocalService } from '../../../support/localService';
import { ffprobeFilm, hasFfprobe, readMp4Captions } from './mp4Captions';

const CAPTIONS = ['The request comes in & waits <briefly>.', 'It is retried, each time a little later.', 'Then it gives up and says why.'];

interface TrackFacts {
  packets: number;
  /** The end of the last packet, in seconds. */
  duration: number;
  /** A hash of every packet's bytes, in decode order. */
  digest: string;
  timestamps: number[];
  frameSeconds: number;
}

async function trackFacts(track: InputTrack): Promise<TrackFacts> {
  const hash = createHash('sha256');
  const timestamps: number[] = [];
  let frameSeconds = 0;
  for await (const packet of new EncodedPacketSink(track).packets()) {
    hash.update(packet.data);
    timestamps.push(packet.timestamp);
    frameSeconds = packet.duration;
  }
  return { packets: timestamps.length, duration: await track.computeDuration(), digest: hash.digest('hex'), timestamps, frameSeconds };
}

/** A file read back by mediabunny, independently of the join's own reading. */
async function readBack(file: string): Promise<{ video: TrackFacts; audio?: TrackFacts; duration: number }> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(file)) });
  try {
    const video = await input.getPrimaryVideoTrack();
    const audio = await input.getPrimaryAudioTrack();
    assert.ok(video, `${file} has a video track`);
    return { video: await trackFacts(video), ...(audio ? { audio: await trackFacts(audio) } : {}), duration: await input.computeDuration() };
  } finally {
    input.dispose();
  }
}

describe('video/film: joining the shots into one film (issue 27)', () => {
  const ctx = useLocalService();
  let folder: string;
  const opened: { close(): Promise<void> }[] = [];

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-film-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((reader) => reader.close()));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** Each clip made by a task of the local service and downloaded over its sockets, as the film's shots will be. */
  async function shoot(clips: FilmClip[]): Promise<string[]> {
    ctx.service.setScenario({ video: { clips, pollsToRunning: 0, pollsToDone: 0 } });
    const client = clientFor(ctx.service);
    const files: string[] = [];
    for (const [index] of clips.entries()) {
      const created = await client.createVideoTask({ model: 'promptreel-video', prompt: `Shot ${index + 1}`, seconds: '5' });
      const task = await client.getVideoTask(created.id);
      files.push((await client.downloadVideo(task, path.join(folder, `shot-${index + 1}.mp4`))).path);
    }
    return files;
  }

  async function shotsOf(files: readonly string[]): Promise<FilmShot[]> {
    const shots: FilmShot[] = [];
    for (const [index, file] of files.entries()) {
      const source = await openDiskFile(file);
      opened.push(source);
      shots.push({ source, caption: CAPTIONS[index] ?? `Shot ${index + 1}` });
    }
    return shots;
  }

  it('issue 27: shots of the same settings become one MP4: the duration is the sum, every packet is copied as it was, the captions are a WebVTT track', async () => {
    const files = await shoot(['shot-a', 'shot-b', 'shot-c']);
    const parts = await Promise.all(files.map(readBack));
    const out = path.join(folder, 'film.mp4');
    const progress: number[] = [];
    const { plan, film } = await joinFilm(await shotsOf(files), () => createDiskFile(out), { onProgress: (done) => progress.push(done.shots) });

    assert.ok(plan.joinable, plan.joinable ? '' : plan.reason);
    assert.ok(film);
    assert.deepEqual(progress, [1, 2, 3]);
    assert.deepEqual(
      plan.shots.map((shot) => [shot.start, shot.seconds]),
      [
        [0, 1],
        [1, 1.5],
        [2.5, 2],
      ],
      'each shot where the ones before it end, as long as its file says',
    );

    const joined = await readBack(out);
    const sum = parts.reduce((total, part) => total + part.video.duration, 0);
    const frame = parts[0].video.frameSeconds;
    assert.ok(
      Math.abs(joined.video.duration - sum) <= frame * (files.length - 1) + 1e-9,
      `${joined.video.duration} s is the sum ${sum} s within a frame a joint`,
    );
    assert.equal(joined.video.packets, sum === 0 ? 0 : parts.reduce((total, part) => total + part.video.packets, 0), 'every video packet');
    const copied = createHash('sha256');
    for (const file of files) {
      const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(file)) });
      for await (const packet of new EncodedPacketSink((await input.getPrimaryVideoTrack())!).packets()) copied.update(packet.data);
      input.dispose();
    }
    assert.equal(joined.video.digest, copied.digest('hex'), 'the video packets are the shots’ bytes, not re-encoded');
    assert.equal(film.videoPackets, joined.video.packets);

    assert.ok(joined.audio, 'the sound is kept');
    assert.equal(joined.audio.packets, film.audioPackets);
    assert.equal(
      film.audioPackets + film.audioPacketsLeftOut,
      parts.reduce((total, part) => total + (part.audio?.packets ?? 0), 0),
    );
    assert.ok(film.audioPacketsLeftOut <= 2 * files.length, `at most the priming and one overhanging packet a shot (${film.audioPacketsLeftOut})`);
    assert.ok(
      joined.audio.timestamps.every((timestamp, index, all) => index === 0 || timestamp > all[index - 1]),
      'the sound goes forward',
    );
    assert.ok(Math.abs(joined.audio.duration - sum) < 0.05, `the sound lasts as long as the picture (${joined.audio.duration} s)`);

    const bytes = fs.readFileSync(out);
    assert.equal(film.bytes, bytes.length);
    const topLevel: string[] = [];
    for (let at = 0; at < bytes.length; at += bytes.readUInt32BE(at)) topLevel.push(bytes.toString('latin1', at + 4, at + 8));
    assert.ok(topLevel.indexOf('moov') < topLevel.indexOf('mdat'), `the header comes first (${topLevel.join(', ')})`);

    const captions = readMp4Captions(bytes);
    assert.ok(captions, 'a WebVTT track');
    assert.equal(captions.handler, 'text');
    const expected = [
      { start: 0, end: 1, text: 'The request comes in &amp; waits &lt;briefly&gt;.' },
      { start: 1, end: 2.5, text: CAPTIONS[1] },
      { start: 2.5, end: 4.5, text: CAPTIONS[2] },
    ];
    assert.deepEqual(
      captions.cues.map((cue) => ({ start: round(cue.start), end: round(cue.end), text: cue.text })),
      expected,
    );
    assert.equal(
      plan.vtt,
      'WEBVTT\n\n' +
        '00:00:00.000 --> 00:00:01.000\nThe request comes in &amp; waits &lt;briefly&gt;.\n\n' +
        '00:00:01.000 --> 00:00:02.500\nIt is retried, each time a little later.\n\n' +
        '00:00:02.500 --> 00:00:04.500\nThen it gives up and says why.\n\n',
    );
  });

  it('issue 27: made in memory from shots read whole (as the extension does, through vscode.workspace.fs), the film is the same file', async () => {
    const files = await shoot(['shot-a', 'shot-b', 'shot-c']);
    const onDisk = path.join(folder, 'on-disk.mp4');
    const inMemory = bytesWriter();
    const shots = files.map((file, index) => ({ source: bytesReader(fs.readFileSync(file)), caption: CAPTIONS[index] ?? `Shot ${index + 1}` }));
    // The MP4 records when it was made, to the second: both joins are made at the same second.
    const { film } = await atOneSecond(async () => {
      await joinFilm(await shotsOf(files), () => createDiskFile(onDisk));
      return joinFilm(shots, async () => inMemory);
    });
    assert.ok(film);
    assert.equal(inMemory.bytes().byteLength, film.bytes);
    assert.ok(Buffer.from(inMemory.bytes()).equals(fs.readFileSync(onDisk)), 'the same bytes as the film written at positions on disk');
  });

  it('issue 27: ffprobe reads the joined film alike: its length, its streams and the captions', async function () {
    if (!hasFfprobe()) {
      console.log('      ffprobe is not on PATH: this check is skipped (the mediabunny and box checks above still ran).');
      this.skip();
    }
    const files = await shoot(['shot-a', 'shot-b', 'shot-c']);
    const out = path.join(folder, 'film.mp4');
    const { plan } = await joinFilm(await shotsOf(files), () => createDiskFile(out));
    assert.ok(plan.joinable);
    const probed = ffprobeFilm(out);
    assert.ok(Math.abs(probed.duration - 4.5) <= 2 / 24, `ffprobe says ${probed.duration} s`);
    const video = probed.streams.find((stream) => stream.codecType === 'video');
    assert.equal(video?.codecName, 'h264');
    assert.equal(video?.frames, 24 + 36 + 48);
    assert.equal(probed.streams.find((stream) => stream.codecType === 'audio')?.codecName, 'aac');
    assert.ok(
      probed.streams.some((stream) => stream.codecTag === 'wvtt'),
      `a wvtt stream among ${JSON.stringify(probed.streams)}`,
    );
    assert.deepEqual(
      probed.captions.map((cue) => [round(cue.start), round(cue.end), cue.text]),
      [
        [0, 1, 'The request comes in &amp; waits &lt;briefly&gt;.'],
        [1, 2.5, CAPTIONS[1]],
        [2.5, 4.5, CAPTIONS[2]],
      ],
    );
  });

  it('issue 27: shots of other settings are not joined: the reason names the shot and how it differs, and the playlist plays them in order', async () => {
    const portrait = await shoot(['shot-a', 'shot-portrait', 'shot-c']);
    let opened = 0;
    const { plan, film } = await joinFilm(await shotsOf(portrait), async () => {
      opened++;
      return createDiskFile(path.join(folder, 'never.mp4'));
    });
    assert.equal(plan.joinable, false);
    assert.equal(film, undefined);
    assert.equal(opened, 0, 'no film file is made');
    assert.equal(plan.joinable ? '' : plan.reason, 'Shot 2 is 180×320 and shot 1 is 320×180.');
    assert.deepEqual(
      plan.shots.map((shot) => [shot.start, shot.seconds]),
      [
        [0, 1],
        [1, 1],
        [2, 2],
      ],
      'the captions still follow the real durations',
    );

    const playlist = filmPlaylist('How retries work', plan, ['shot-1.mp4', 'shot-2.mp4', 'shot-3.mp4'], 'how-retries-work.vtt');
    const parsed = parseFilmPlaylist(playlistJson(playlist));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.playlist, {
      version: 1,
      name: 'How retries work',
      reason: 'Shot 2 is 180×320 and shot 1 is 320×180.',
      captions: 'how-retries-work.vtt',
      shots: [
        { file: 'shot-1.mp4', start: 0, seconds: 1, caption: CAPTIONS[0] },
        { file: 'shot-2.mp4', start: 1, seconds: 1, caption: CAPTIONS[1] },
        { file: 'shot-3.mp4', start: 2, seconds: 2, caption: CAPTIONS[2] },
      ],
    });
    assert.equal(
      playlistM3u(playlist),
      '#EXTM3U\n#PLAYLIST:How retries work\n' +
        `#EXTINF:1,${CAPTIONS[0]}\nshot-1.mp4\n#EXTINF:1,${CAPTIONS[1]}\nshot-2.mp4\n#EXTINF:2,${CAPTIONS[2]}\nshot-3.mp4\n`,
    );

    const high = await planFilm(await shotsOf(await shoot(['shot-a', 'shot-b', 'shot-high'])));
    assert.equal(high.joinable ? '' : high.reason, 'Shot 3 is H.264 High, level 2.1 and shot 1 is H.264 Main, level 2.1.');
  });

  it('issue 27: a shot that is not a video is named in the reason, never thrown', async () => {
    const [first] = await shotsOf(await shoot(['shot-a']));
    const page = { source: bytesReader(new TextEncoder().encode('<html>Sign in</html>')), caption: 'A login page' };
    const plan = await planFilm([first, page, first]);
    assert.equal(plan.joinable, false);
    assert.match(plan.joinable ? '' : plan.reason, /^Shot 2 cannot be read as a video: /);
  });

  it('issue 27: a playlist names only files beside it', () => {
    const base = { version: 1, name: 'Film', reason: '', shots: [{ file: 'shot-1.mp4', start: 0, seconds: 1, caption: 'x' }] };
    for (const file of ['../secret.mp4', '/etc/passwd', 'C:/x.mp4', 'a\\b.mp4', 'a//b.mp4']) {
      const parsed = parseFilmPlaylist(JSON.stringify({ ...base, shots: [{ ...base.shots[0], file }] }));
      assert.equal(parsed.ok, false, file);
    }
    assert.equal(parseFilmPlaylist(JSON.stringify(base)).ok, true);
    assert.equal(parseFilmPlaylist('{').ok, false);
  });

  it('issue 27: aborting stops between two packets, closes the file once, and sends nothing more to it', async () => {
    const shots = await shotsOf(await shoot(['shot-a', 'shot-b', 'shot-c']));
    const plan = await planFilm(shots);
    assert.ok(plan.joinable);
    const controller = new AbortController();
    let closes = 0;
    let writesAfterClose = 0;
    const target: ByteWriter = {
      write: async () => {
        if (closes) writesAfterClose++;
      },
      close: async () => {
        closes++;
      },
    };
    await assert.rejects(
      writeFilm(shots, plan, target, { signal: controller.signal, onProgress: () => controller.abort() }),
      (error: Error) => error.name === 'AbortError',
    );
    assert.equal(closes, 1);
    assert.equal(writesAfterClose, 0);
  });
});

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

async function atOneSecond<T>(work: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  const frozen = realNow();
  Date.now = () => frozen;
  try {
    return await work();
  } finally {
    Date.now = realNow;
  }
}
