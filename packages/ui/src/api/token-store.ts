const KEY = 'weft.token';

type Listener = (asking: boolean) => void;

/**
 * The bearer token, kept for the browser session only (sessionStorage), and
 * the one place that asks the user for it. Requests that get 401 call
 * {@link TokenStore.ask}; every one of them waits on the same answer, so a
 * page that fires ten requests shows the prompt once.
 */
export class TokenStore {
  #waiting: { promise: Promise<string>; resolve: (token: string) => void } | undefined;
  #listeners = new Set<Listener>();
  #rejected = false;

  get token(): string | undefined {
    return sessionStorage.getItem(KEY) ?? undefined;
  }

  /** True while a prompt is open. */
  get asking(): boolean {
    return this.#waiting !== undefined;
  }

  /** True when the last token the user gave was refused by the server. */
  get rejected(): boolean {
    return this.#rejected;
  }

  /** Opens the prompt (once) and resolves with the token the user enters. */
  ask(rejected: boolean): Promise<string> {
    if (this.#waiting === undefined) {
      let resolve!: (token: string) => void;
      const promise = new Promise<string>((r) => {
        resolve = r;
      });
      this.#waiting = { promise, resolve };
      this.#rejected = rejected;
      this.#emit();
    }
    return this.#waiting.promise;
  }

  /** Called by the prompt: stores the token and releases every waiting request. */
  provide(token: string): void {
    sessionStorage.setItem(KEY, token);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    this.#emit();
    waiting?.resolve(token);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    for (const listener of this.#listeners) listener(this.asking);
  }
}
