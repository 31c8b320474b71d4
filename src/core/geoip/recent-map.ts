// A bounded map of recent entries, cheaper per read than an LRU list: two generations of plain Maps.
// Reads look in the current generation, then in the previous one (moving the entry forward); when
// the current one is full it becomes the previous and the older entries are dropped. So at most
// `max` entries are kept, and every entry read since the last turn survives the next.

export class RecentMap<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private readonly perGeneration: number;

  constructor(max: number) {
    this.perGeneration = Math.max(1, Math.floor(max / 2));
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.perGeneration && !this.current.has(key)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}
