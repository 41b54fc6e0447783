/**
 * A small seeded PRNG (mulberry32) and the draws made with it: the same seed always gives the same
 * data. The catalog seed invents its vehicle catalog with it, the demo generator its stock.
 *
 * Every generated row can get its own generator seeded from (dataset seed, stream, row index), so
 * any row can be recomputed on its own: the demo loaders stream tables one after another without
 * keeping earlier rows in memory.
 */

/** 32-bit finalizer (murmur3 fmix32): spreads nearby inputs over the whole range. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Seed of row `index` of stream `stream` in the dataset seeded with `seed`. */
export function rowSeed(seed: number, stream: number, index: number): number {
  return mix32(mix32(mix32(seed ^ 0x9e3779b9) + Math.imul(stream, 0x27d4eb2f)) ^ mix32(index + 0x165667b1));
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static forRow(seed: number, stream: number, index: number): Random {
    return new Random(rowSeed(seed, stream, index));
  }

  /** uniform in [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick() from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `count` distinct elements (or all of them when fewer), in random order */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) {
      const i = Math.floor(this.next() * pool.length);
      out.push(pool[i]!);
      pool[i] = pool[pool.length - 1]!;
      pool.pop();
    }
    return out;
  }

  /** standard normal (Box-Muller) */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** log-normal with the given median and sigma (of the underlying normal) */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /**
   * Index in [0, size) skewed towards 0: a few popular entries and a long tail, like real stock
   * where some references are offered by dozens of sellers and most by one or two.
   */
  skewedIndex(size: number, skew: number): number {
    return Math.min(size - 1, Math.floor(size * Math.pow(this.next(), skew)));
  }
}

/** A fixed list with weights, sampled in O(log n). */
export class Weighted<T> {
  private readonly cumulative: number[];
  private readonly total: number;

  constructor(private readonly entries: readonly (readonly [T, number])[]) {
    let sum = 0;
    this.cumulative = entries.map(([, weight]) => (sum += weight));
    this.total = sum;
    if (!entries.length || sum <= 0) throw new Error('Weighted needs at least one positive weight');
  }

  pick(random: Random): T {
    const target = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return this.entries[lo]![0];
  }
}
