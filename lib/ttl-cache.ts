interface Entry<V> {
  value: Promise<V>;
  /** Fresh until this time. */
  expires: number;
  /** After `expires` and until this time the old value is still served while one refresh runs. */
  staleUntil: number;
  refreshing: boolean;
  /** The resolved value's size as `sizeOf` counts it; 0 while it loads. */
  bytes: number;
}

export interface TtlCacheOptions<V> {
  /** Most entries kept (the oldest go first). */
  maxEntries?: number;
  /** Most bytes kept, as `sizeOf` counts them (the oldest entries go first). */
  maxBytes?: number;
  /** An estimate of a value's memory; the cache only adds these up and compares them with `maxBytes`. */
  sizeOf?: (value: V) => number;
}

/**
 * A small in-process cache with a time-to-live and bounds on entries and bytes (oldest evicted first).
 * It stores promises, so a burst of identical misses runs the loader once, and it serves an expired
 * value for up to one more TTL while a single background load replaces it, so no caller waits on a
 * refresh. A value is therefore at most twice the TTL old; entries past that are dropped whenever
 * the cache next stores something, so keys asked for once do not stay.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: V) => number;
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    options: TtlCacheOptions<V> = {},
  ) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxBytes = options.maxBytes ?? Infinity;
    this.sizeOf = options.sizeOf ?? (() => 0);
  }

  get(key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit && hit.staleUntil > now) {
      if (!hit.refreshing) this.refresh(key, hit, load);
      return hit.value;
    }
    const value = load();
    const entry = this.store(key, value, now);
    // A failed load must not be served to the next caller.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.remove(key);
    });
    return value;
  }

  /** Whether `get` would answer without loading now (a fresh, servable stale or loading entry). */
  has(key: string, now = Date.now()): boolean {
    const hit = this.entries.get(key);
    return this.ttlMs > 0 && hit !== undefined && hit.staleUntil > now;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** What the cache holds now: entries (loading ones included) and the bytes of the loaded ones. */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private refresh(key: string, stale: Entry<V>, load: () => Promise<V>): void {
    stale.refreshing = true;
    const next = load();
    next.then(
      () => {
        if (this.entries.get(key) === stale) this.store(key, next, Date.now());
      },
      // Keep serving the stale value until it runs out; the next caller after that loads afresh.
      () => {
        stale.refreshing = false;
      },
    );
  }

  private store(key: string, value: Promise<V>, now: number): Entry<V> {
    this.remove(key);
    this.dropStale(now);
    const entry: Entry<V> = { value, expires: now + this.ttlMs, staleUntil: now + 2 * this.ttlMs, refreshing: false, bytes: 0 };
    this.entries.set(key, entry);
    this.evict();
    value.then(
      (resolved) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = this.sizeOf(resolved);
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {},
    );
    return entry;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  // Entries sit in the order they were stored, which is the order they go stale in.
  private dropStale(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.staleUntil > now) break;
      this.remove(key);
    }
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
  }
}
