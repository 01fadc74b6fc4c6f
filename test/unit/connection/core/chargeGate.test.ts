import * as assert from 'node:assert/strict';
import type { KeyHealthState } from '../../../../src/connection/account/core/keyHealthMonitor';
import type { PriceQuote } from '../../../../src/connection/account/core/priceBook';
import { ChargeGate, describeQuote, describeQuotePrice, QUOTE_DEADLINE_MS, type ChargedVideoRequest } from '../../../../src/connection/core/chargeGate';
import { FakeClock } from '../../../fakes/fakeClock';

const REQUEST: ChargedVideoRequest = { model: 'video-model', prompt: 'A kite', seconds: '5', metadata: { seed: 1 } };

function gate(
  options: {
    prices?: Record<string, PriceQuote>;
    priceOf?: (model: string) => Promise<PriceQuote | undefined>;
    health?: KeyHealthState;
    fromFolder?: string[];
    clock?: FakeClock;
  } = {},
): ChargeGate<ChargedVideoRequest> {
  return new ChargeGate<ChargedVideoRequest>({
    priceOf: options.priceOf ?? (async (model) => options.prices?.[model]),
    keyHealth: async () => options.health ?? { kind: 'not-offered' },
    fromFolder: () => options.fromFolder ?? [],
    clock: options.clock ?? new FakeClock(),
  });
}

describe('connection: the charge gate (review 2.3)', () => {
  it('review 2.3: an accepted quote is approved once, and each of its requests is handed out once', async () => {
    const charges = gate({ prices: { 'video-model': { kind: 'per-call', usd: 0.4, source: 'service' } } });
    const quote = await charges.quote([REQUEST, { ...REQUEST, metadata: { seed: 2 } }]);
    assert.equal(quote.charge.priceUsd, 0.8);
    const approval = charges.approve(quote);
    assert.ok(approval);
    assert.equal(charges.approve(quote), undefined, 'a confirmation is never accepted twice');
    assert.equal(charges.approve(quote.id), undefined, 'nor by its id');
    assert.equal(charges.take(approval)?.metadata?.seed, 1);
    assert.equal(charges.take(approval)?.metadata?.seed, 2);
    assert.equal(charges.take(approval), undefined);
    assert.equal(charges.remaining(approval), 0);
  });

  it('review 2.3: approves only quotes it made, and sends what was quoted even if the caller changes its copy', async () => {
    const charges = gate();
    const request = { ...REQUEST, metadata: { seed: 1 } };
    const quote = await charges.quote([request]);
    request.metadata.seed = 99;
    assert.equal(charges.approve({ ...quote }), undefined, 'a look-alike of a quote is not one');
    const approval = charges.approve(quote);
    assert.ok(approval);
    assert.equal(charges.take(approval)?.metadata?.seed, 1);
    assert.equal(charges.take({ quote }), undefined, 'an approval it did not give hands out nothing');
    assert.throws(() => {
      (quote.requests[0] as { prompt: string }).prompt = 'changed';
    }, TypeError);
  });

  it('review 2.3: says the price is not known when one model has none, and never waits past its deadline', async () => {
    const clock = new FakeClock();
    const unpriced = gate({ prices: {} });
    const quote = await unpriced.quote([REQUEST]);
    assert.equal(quote.charge.priceUsd, undefined);
    assert.equal(describeQuotePrice(quote), 'price not known');
    assert.match(describeQuote(quote), /not known/);

    const stuck = gate({ clock, priceOf: () => new Promise(() => undefined) });
    let late: Awaited<ReturnType<typeof stuck.quote>> | undefined;
    const arrived = () => late;
    void stuck.quote([REQUEST]).then((value) => (late = value));
    await clock.advance(QUOTE_DEADLINE_MS - 1);
    assert.equal(arrived(), undefined);
    await clock.advance(1);
    assert.ok(arrived(), 'the quote arrives at the deadline');
    assert.equal(arrived()?.charge.priceUsd, undefined);
  });

  it("review 2.4: names what the folder's settings chose in the confirmation", async () => {
    const quote = await gate({ fromFolder: ['the model'] }).quote([REQUEST], ["the duration 10 s (this folder's recipe)"]);
    assert.deepEqual(quote.fromFolder, ['the model', "the duration 10 s (this folder's recipe)"]);
    assert.match(describeQuote(quote), /From this folder's settings \(not yours\): the model, the duration 10 s/);
  });

  it('review 2.3: a confirmation shown by VS Code (a tool call) is held by what was asked and used once, oldest first', async () => {
    const charges = gate();
    const first = await charges.quote([REQUEST]);
    const second = await charges.quote([{ ...REQUEST, seconds: '10' }]);
    charges.hold('input', first);
    charges.hold('input', second);
    assert.equal(charges.approveHeld('input')?.quote, first);
    assert.equal(charges.approveHeld('input')?.quote, second);
    assert.equal(charges.approveHeld('input'), undefined);
    assert.equal(charges.approveHeld('other'), undefined);
  });

  it('VS Code 1.104: a held quote can be taken to be confirmed here instead, then approved once like any other', async () => {
    const charges = gate();
    const quote = await charges.quote([REQUEST]);
    charges.hold('input', quote);
    assert.equal(charges.takeHeld('input'), quote);
    assert.equal(charges.takeHeld('input'), undefined, 'no longer held');
    assert.equal(charges.approveHeld('input'), undefined, 'nor approved by a confirmation shown elsewhere');
    assert.equal(charges.approve(quote)?.quote, quote);
    assert.equal(charges.approve(quote), undefined, 'once');
  });

  it('issue 27: a chained shot is quoted without its first frame and taken only with it; an unmarked request never takes one', async () => {
    const charges = gate({ prices: { 'video-model': { kind: 'per-call', usd: 0.4, source: 'service' } } });
    const frame = { uri: 'file:///films/demo.frames/s1.png', fileName: 's1.png', contentType: 'image/png' };
    const chained: ChargedVideoRequest = { ...REQUEST, prompt: 'Shot 2', firstFrameFromPrevious: true };
    const quote = await charges.quote([REQUEST, chained]);
    assert.equal(quote.charge.priceUsd, 0.8, 'the marker does not change the price');
    const approval = charges.approve(quote);
    assert.ok(approval);

    assert.equal(charges.needsFirstFrame(approval), false);
    assert.equal(charges.take(approval, frame), undefined, 'no first frame is smuggled into an unmarked request');
    assert.equal(charges.remaining(approval), 2, 'a refusal takes nothing');
    const first = charges.take(approval);
    assert.equal(first?.prompt, 'A kite');
    assert.equal(first?.firstFrame, undefined);

    assert.equal(charges.needsFirstFrame(approval), true);
    assert.equal(charges.take(approval), undefined, 'a chained shot is not sent without its first frame');
    assert.equal(charges.remaining(approval), 1);
    const second = charges.take(approval, { ...frame, extra: 'dropped' } as typeof frame);
    assert.deepEqual(second, { ...REQUEST, prompt: 'Shot 2', firstFrame: frame }, 'filled in, the marker gone, nothing else changed');
    assert.ok(Object.isFrozen(second) && Object.isFrozen(second?.firstFrame));
    assert.equal(charges.take(approval, frame), undefined, 'each request once');
    assert.equal(quote.requests[1].firstFrame, undefined, 'the quote itself is unchanged');
  });

  it('issue 27: an approval of unmarked requests cannot be used to send a first frame, even for its last request', async () => {
    const charges = gate();
    const approval = charges.approve(await charges.quote([REQUEST]));
    assert.ok(approval);
    const frame = { uri: 'file:///elsewhere.png', fileName: 'elsewhere.png', contentType: 'image/png' };
    assert.equal(charges.take(approval, frame), undefined);
    assert.deepEqual(charges.take(approval), REQUEST);
  });
});
