import type { ExceptionInfo } from '../api/index.js';

/** An exception with its stack and `cause` chain. */
export function ExceptionView({ exception }: { exception: ExceptionInfo }) {
  const chain: ExceptionInfo[] = [];
  for (let e: ExceptionInfo | undefined = exception; e !== undefined && chain.length < 20; e = e.cause)
    chain.push(e);
  return (
    <div class="exception">
      {chain.map((e, i) => (
        <div key={i} class="exception-item">
          <div class="exception-head">
            {i > 0 && <span class="muted">caused by </span>}
            <strong>{e.name}</strong>: {e.message}
          </div>
          {e.stack && <pre class="stack">{e.stack}</pre>}
        </div>
      ))}
    </div>
  );
}
