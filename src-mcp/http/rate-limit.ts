/**
 * Requests per key: a token bucket holding a minute's allowance, refilled continuously. A client
 * looping on a tool is slowed before it floods Roam; a person's chats never come near it.
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request for `key`: 0 when allowed, else the seconds until one is. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - bucket.tokens) * 60_000) / this.perMinute / 1000));
  }
}
