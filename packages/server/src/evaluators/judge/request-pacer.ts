/**
 * At most `perMinute` requests in any minute, spread out: a token bucket of
 * `perMinute` tokens refilled continuously; `take()` waits for a token.
 * Waiting callers are served in order.
 */
export class RequestPacer {
  readonly perMinute: number;
  #tokens: number;
  #at = Date.now();
  #queue: Promise<void> = Promise.resolve();

  constructor(perMinute: number) {
    this.perMinute = perMinute;
    this.#tokens = perMinute;
  }

  take(): Promise<void> {
    const turn = this.#queue.then(() => this.#wait());
    this.#queue = turn;
    return turn;
  }

  async #wait(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.#tokens = Math.min(this.perMinute, this.#tokens + ((now - this.#at) * this.perMinute) / 60_000);
      this.#at = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - this.#tokens) * 60_000) / this.perMinute));
    }
  }
}
