import * as assert from 'node:assert/strict';
import type { KeyHealthState } from '../../../../../src/connection/account/core/keyHealthMonitor';
import type { PriceQuote } from '../../../../../src/connection/account/core/priceBook';
import { ChargeGate, describeQuotePrice, type ChargedVideoRequest } from '../../../../../src/connection/core/chargeGate';
import type { VideoOptions } from '../../../../../src/video/core/videoOptions';
import { filmCost, filmRequests, shotProblems, shotPrompt, shotRequest, shotsToShoot } from '../../../../../src/video/film/core/filmRequests';
import { newStoryboard, type Storyboard } from '../../../../../src/video/film/core/storyboard';
import { FakeClock } from '../../../../fakes/fakeClock';

const DEFAULTS: VideoOptions = {
  model: 'settings-model',
  seconds: '5',
  resolution: '1080p',
  ratio: 'adaptive',
  generateAudio: false,
  watermark: true,
  moderator: true,
  seed: undefined,
};

function storyboard(): Storyboard {
  return newStoryboard(
    {
      shots: [
        { prompt: 'A parcel is thrown at a door', caption: 'A call is attempted.', seconds: 4 },
        { prompt: 'The door stays shut while rain falls on the empty porch and the parcel waits', caption: 'It fails.', seconds: 8 },
        { prompt: 'A clock waits', caption: 'It waits longer each time.', seconds: 4 },
      ],
    },
    { model: 'promptreel-video', settings: { resolution: '720p', ratio: '16:9', seed: 7 }, created: new Date(0) },
  );
}

const HEALTH: KeyHealthState = {
  kind: 'known',
  health: { source: 'token-usage', unlimited: false, leftUsd: 3.2 },
  display: { unit: 'USD', quotaPerUnit: 500_000 },
  readAt: 0,
};

function gate(price: PriceQuote | undefined): ChargeGate<ChargedVideoRequest> {
  return new ChargeGate<ChargedVideoRequest>({ priceOf: async () => price, keyHealth: async () => HEALTH, fromFolder: () => [], clock: new FakeClock() });
}

describe('video/film: what shooting a film sends and costs (issue 27)', () => {
  it('issue 27: one request per shot: the film’s model and settings over the user’s, each shot’s own seconds', () => {
    const requests = filmRequests(storyboard(), { defaults: DEFAULTS, firstFrame: true });
    assert.equal(requests.length, 3);
    assert.deepEqual(requests[0], {
      model: 'promptreel-video',
      prompt: 'A parcel is thrown at a door',
      seconds: '4',
      moderator: true,
      metadata: { resolution: '720p', ratio: '16:9', generate_audio: false, watermark: true, seed: 7 },
    });
    assert.deepEqual(
      requests.map((request) => request.seconds),
      ['4', '8', '4'],
    );
    const frame = { uri: 'file:///w/.promptreel/films/f/s1-last.png', fileName: 's1-last.png', contentType: 'image/png' };
    assert.deepEqual(shotRequest(storyboard(), 1, { defaults: DEFAULTS, firstFrame: true }, frame).firstFrame, frame, 'the previous shot’s last frame');
    assert.equal(shotRequest(storyboard(), 1, { defaults: DEFAULTS, firstFrame: false }, frame).firstFrame, undefined, 'never to a model without first frames');
    assert.throws(() => shotRequest(storyboard(), 3, { defaults: DEFAULTS, firstFrame: true }), RangeError);
  });

  it('issue 27: for a first-frame model every shot after the first is quoted as starting from the previous shot’s last frame', () => {
    const chained = filmRequests(storyboard(), { defaults: DEFAULTS, firstFrame: true });
    assert.deepEqual(
      chained.map((request) => request.firstFrameFromPrevious),
      [undefined, true, true],
    );
    assert.ok(
      chained.every((request) => request.firstFrame === undefined),
      'no frame is known when the film is priced',
    );
    const plain = filmRequests(storyboard(), { defaults: DEFAULTS, firstFrame: false });
    assert.ok(plain.every((request) => request.firstFrameFromPrevious === undefined));
    const again = filmRequests(storyboard(), { defaults: DEFAULTS, firstFrame: true }, [2]);
    assert.equal(again.length, 1, 'a shot shot again alone');
    assert.equal(again[0].prompt, 'A clock waits');
    assert.equal(again[0].firstFrameFromPrevious, true);
    assert.equal(filmRequests(storyboard(), { defaults: DEFAULTS, firstFrame: true }, [0])[0].firstFrameFromPrevious, undefined);
  });

  it('issue 27: each shot gets the check before charging: a duration the model does not offer, a prompt longer than it takes', () => {
    const options = { defaults: DEFAULTS, firstFrame: false };
    assert.deepEqual(shotProblems(storyboard(), options, { firstFrame: false }), [undefined, undefined, undefined], 'no limits declared, nothing to name');
    assert.deepEqual(shotProblems(storyboard(), options, { firstFrame: false, durations: [4, 6] }), [
      undefined,
      'promptreel-video offers 4 or 6 seconds, not 8.',
      undefined,
    ]);
    const problems = shotProblems(storyboard(), options, { firstFrame: false, maxPromptLength: 30 });
    assert.equal(problems[0], undefined, 'a prompt within the limit');
    assert.match(problems[1] ?? '', /^The prompt has \d+ characters; promptreel-video accepts at most 30\.$/);
  });

  it('issue 27: Shoot sends the whole film, the shots never sent, or one shot again', () => {
    const board = storyboard();
    board.shots[0] = { ...board.shots[0], taskId: 'task-1' };
    assert.deepEqual(shotsToShoot(board, { kind: 'film' }), [0, 1, 2]);
    assert.deepEqual(shotsToShoot(board, { kind: 'rest' }), [1, 2]);
    assert.deepEqual(shotsToShoot(board, { kind: 'again', shotId: 's3' }), [2]);
    assert.deepEqual(shotsToShoot(board, { kind: 'again', shotId: 'gone' }), []);
  });

  it('issue 27: a model without first frames gets the previous shot’s prompt as context, within its prompt limit', () => {
    const board = storyboard();
    assert.equal(shotPrompt(board, 0, { firstFrame: false }), 'A parcel is thrown at a door');
    assert.equal(shotPrompt(board, 1, { firstFrame: true }), board.shots[1].prompt);
    assert.equal(
      shotPrompt(board, 1, { firstFrame: false }),
      `${board.shots[1].prompt}\n\nContinuity: the shot before this one showed A parcel is thrown at a door`,
    );
    const fitted = shotPrompt(board, 2, { firstFrame: false, maxPromptLength: 100 });
    assert.equal([...fitted].length, 100);
    assert.ok(fitted.startsWith('A clock waits\n\nContinuity: the shot before this one showed The door stays shut'), fitted);
    assert.ok(fitted.endsWith('…'));
    assert.equal(shotPrompt(board, 2, { firstFrame: false, maxPromptLength: 60 }), 'A clock waits', 'no room for a useful note: none');
  });

  it('issue 27: costs n × the price per call, or the price per second × the seconds; unknown otherwise', () => {
    assert.deepEqual(filmCost({ kind: 'per-call', usd: 0.4 }, storyboard()), { shots: [0.4, 0.4, 0.4], totalUsd: 1.2000000000000002 });
    assert.deepEqual(filmCost({ kind: 'per-second', usd: 0.05 }, storyboard()), { shots: [0.2, 0.4, 0.2], totalUsd: 0.8 });
    assert.deepEqual(filmCost(undefined, storyboard()), { shots: [undefined, undefined, undefined] });
    assert.deepEqual(filmCost({ kind: 'per-token', promptUsdPerMillion: 1, completionUsdPerMillion: 1 }, storyboard()).totalUsd, undefined);
  });

  it('issue 27: the charge gate quotes the film’s requests as one charge: the total and what the key keeps, per call or per second', async () => {
    const requests = filmRequests(storyboard(), { defaults: DEFAULTS, firstFrame: true });
    const perCall = await gate({ kind: 'per-call', usd: 0.4, source: 'service' }).quote(requests);
    assert.equal(perCall.requests.length, 3);
    assert.equal(describeQuotePrice(perCall), '$1.20 · $2.00 left after');
    const perSecond = await gate({ kind: 'per-second', usd: 0.05, source: 'settings' }).quote(requests);
    assert.equal(perSecond.charge.priceUsd, 0.8);
    assert.equal(describeQuotePrice(perSecond), '$0.80 · $2.40 left after');
    const reshoot = await gate({ kind: 'per-second', usd: 0.05, source: 'settings' }).quote([requests[1]]);
    assert.equal(describeQuotePrice(reshoot), '$0.40 · $2.80 left after', 'a shot shot again is priced alone');
    const unknown = await gate(undefined).quote(requests);
    assert.equal(describeQuotePrice(unknown), 'price not known');
  });
});
