import { describe, expect, it } from 'vitest';
import { BatchLanes } from '../../src/credits/batch-lanes.js';

/** A sender whose batches complete only when the test says so, recording what each batch held. */
function controlledSender() {
  const batches: { lane: string; items: number[]; finish: (error?: Error) => void }[] = [];
  const send = (lane: string, items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({
        lane,
        items,
        finish: (error) => (error ? reject(error) : resolve(items.map((i) => `${lane}:${i}`))),
      });
    });
  return { batches, send };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchLanes', () => {
  it('sends the first item of an idle lane at once and the items that wait meanwhile together, in order', async () => {
    const { batches, send } = controlledSender();
    const lanes = new BatchLanes(send);
    const first = lanes.submit('a', 1);
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1]]);

    const waiting = [2, 3, 4].map((i) => lanes.submit('a', i));
    await settle();
    expect(batches).toHaveLength(1); // nothing else is sent while lane a has a batch in flight

    batches[0]!.finish();
    expect(await first).toBe('a:1');
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1]!.finish();
    expect(await Promise.all(waiting)).toEqual(['a:2', 'a:3', 'a:4']);
  });

  it('keeps lanes apart: another lane is not held up by a batch in flight', async () => {
    const { batches, send } = controlledSender();
    const lanes = new BatchLanes(send);
    void lanes.submit('a', 1);
    const b = lanes.submit('b', 1);
    await settle();
    expect(batches.map((x) => [x.lane, x.items])).toEqual([
      ['a', [1]],
      ['b', [1]],
    ]);
    batches[1]!.finish();
    expect(await b).toBe('b:1');
  });

  it('never sends more than maxBatch items at once', async () => {
    const { batches, send } = controlledSender();
    const lanes = new BatchLanes(send, 2);
    const all = [1, 2, 3, 4, 5].map((i) => lanes.submit('a', i));
    for (let n = 0; n < 3; n++) {
      await settle();
      batches[n]!.finish();
    }
    expect(await Promise.all(all)).toHaveLength(5);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails only the items of a failed batch; the lane goes on with the next one', async () => {
    const { batches, send } = controlledSender();
    const lanes = new BatchLanes(send);
    const first = lanes.submit('a', 1);
    await settle();
    const second = lanes.submit('a', 2);
    batches[0]!.finish(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await settle();
    batches[1]!.finish();
    expect(await second).toBe('a:2');
  });

  it('refuses an answer that does not give one result per item', async () => {
    const lanes = new BatchLanes<number, string>(() => Promise.resolve([]));
    await expect(lanes.submit('a', 1)).rejects.toThrow('batch of 1 answered with 0 results');
  });

  it('an item answered with a promise waits for it, and its lane goes on meanwhile; busy while in flight', async () => {
    let handOn!: (result: string) => void;
    const handedOn = new Promise<string>((resolve) => (handOn = resolve));
    const lanes = new BatchLanes<number, string>(async (_lane, items) =>
      items.map((i) => (i === 1 ? handedOn : `a:${i}`)),
    );
    expect(lanes.busy('a')).toBe(false);
    let firstDone = false;
    const first = lanes.submit('a', 1).then((r) => ((firstDone = true), r));
    expect(lanes.busy('a')).toBe(true);
    await settle();
    expect(await lanes.submit('a', 2)).toBe('a:2');
    expect(firstDone).toBe(false);
    handOn('elsewhere:1');
    expect(await first).toBe('elsewhere:1');
    await settle();
    expect(lanes.busy('a')).toBe(false);
  });
});
