// A small seeded PRNG for the demo-data generator: same seed, same numbers, on every platform.
// sfc32 (128-bit state) rather than a 32-bit generator, because every person draws from their
// own stream and thousands of 32-bit streams would overlap and repeat uuids.

/** murmur3's 32-bit finaliser: spreads a seed's bits so nearby seeds give unrelated states. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | undefined;

  /** `stream` picks an independent sequence for the same seed (one per person, say). */
  constructor(seed: number, stream = 0) {
    const s = seed >>> 0;
    const t = stream >>> 0;
    this.a = fmix32(s ^ 0x9e3779b9);
    this.b = fmix32(t ^ 0x243f6a88 ^ Math.imul(s, 0x85ebca6b));
    this.c = fmix32((s + Math.imul(t, 0xc2b2ae35)) ^ 0xb7e15162);
    this.d = 1;
    // The first outputs of a fresh sfc32 state are poorly mixed; its author discards a few.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  uniform(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks one of `[value, weight]` pairs with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [value, w] of items) {
      r -= w;
      if (r < 0) return value;
    }
    // Only reachable through rounding: fall back to the last entry with any weight.
    for (let i = items.length - 1; i >= 0; i--) if (items[i]![1] > 0) return items[i]![0];
    throw new Error('weighted pick with no positive weight');
  }

  /** Gaussian draw (Box–Muller; the second value of each pair is kept for the next call). */
  normal(mean = 0, sd = 1): number {
    if (this.spareNormal !== undefined) {
      const z = this.spareNormal;
      this.spareNormal = undefined;
      return mean + sd * z;
    }
    const u = 1 - this.next(); // (0, 1]: log(0) would be -Infinity
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return mean + sd * r * Math.cos(2 * Math.PI * v);
  }

  /** Exponential draw with the given mean (waiting times between independent events). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** Number of failures before the first success, each trial succeeding with `p`. */
  geometric(p: number): number {
    if (p >= 1) return 0;
    return Math.floor(Math.log(1 - this.next()) / Math.log(1 - p));
  }

  /** `n` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) {
      const word = this.uint32();
      for (let j = 0; j < 4 && i + j < bytes; j++) out += HEX[(word >>> (j * 8)) & 0xff];
    }
    return out;
  }

  /** A UUIDv4-shaped string from this stream. */
  uuidv4(): string {
    const h = this.hex(16);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }

  /**
   * A UUIDv7-shaped string for the instant `ms`, as posthog-js makes for event uuids, session
   * ids and anonymous distinct ids: 48-bit ms timestamp, then random bits from this stream.
   */
  uuidv7(ms: number): string {
    const ts = Math.floor(ms).toString(16).padStart(12, '0');
    const h = this.hex(10);
    const variant = ((parseInt(h[3]!, 16) & 0x3) | 0x8).toString(16);
    return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${h.slice(0, 3)}-${variant}${h.slice(4, 7)}-${h.slice(7, 19)}`;
  }
}
