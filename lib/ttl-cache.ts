interface Entry<V> {
  value: Promise<V>;
  /** Fresh until this time. */
  expires: number;
  /** After `expires` and until this time the old value is still served while one refresh runs. */
  staleUntil: number;
  refreshing: boolean;
}

/**
 * A small in-process cache with a time-to-live and a size bound (oldest entry evicted first).
 * It stores promises, so a burst of identical misses runs the loader once, and it serves an expired
 * value for up to one more TTL while a single background load replaces it, so no caller waits on a
 * refresh. A value is therefore at most twice the TTL old.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit && hit.staleUntil > now) {
      if (!hit.refreshing) this.refresh(key, hit, load);
      return hit.value;
    }
    const value = load();
    this.store(key, value, now);
    // A failed load must not be served to the next caller.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
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

  private store(key: string, value: Promise<V>, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + this.ttlMs, staleUntil: now + 2 * this.ttlMs, refreshing: false });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
