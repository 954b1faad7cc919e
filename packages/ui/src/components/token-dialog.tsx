import { useEffect, useRef, useState } from 'preact/hooks';
import type { TokenStore } from '../api/index.js';

/**
 * Asks for the server's bearer token when a request got 401. The token stays
 * in sessionStorage: entered once per browser session, gone when it closes.
 */
export function TokenDialog({ tokens }: { tokens: TokenStore }) {
  const [asking, setAsking] = useState(tokens.asking);
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => tokens.subscribe(setAsking), [tokens]);
  useEffect(() => {
    if (asking) input.current?.focus();
  }, [asking]);
  if (!asking) return null;
  const submit = (event: Event) => {
    event.preventDefault();
    if (value.trim() === '') return;
    tokens.provide(value.trim());
    setValue('');
  };
  return (
    <div class="modal-backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="token-title">
        <form class="modal" onSubmit={submit}>
          <h2 id="token-title">This server needs an access token</h2>
          <p>
            Enter the token the server was started with (<code>weft serve --token …</code>). It is kept for
            this browser session only.
          </p>
          {tokens.rejected && (
            <p class="error-text" role="alert">
              The server refused that token. Check it and try again.
            </p>
          )}
          <label>
            Token
            <input
              ref={input}
              name="token"
              type="password"
              autoComplete="off"
              value={value}
              onInput={(e) => setValue((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" class="button primary">
            Continue
          </button>
        </form>
      </div>
    </div>
  );
}
