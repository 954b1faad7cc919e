import { useEffect, useMemo } from 'preact/hooks';
import { ApiClient, type TokenStore } from './api/index.js';
import { appContext } from './hooks/index.js';
import { TokenDialog } from './components/index.js';
import { href, useRoute } from './router/index.js';
import {
  CallView,
  CallsView,
  EvalCompareView,
  EvalsView,
  ObjectView,
  ObjectsView,
  ProjectPicker,
  rememberProject,
  SessionView,
  SessionsView,
  TableView,
  TraceView,
} from './views/index.js';

const NAV = [
  { view: 'calls', label: 'Calls' },
  { view: 'sessions', label: 'Sessions' },
  { view: 'evals', label: 'Evaluations' },
  { view: 'objects', label: 'Objects' },
] as const;

/** The shell: top bar, the view the hash names, and the token prompt. */
export function App({ tokens }: { tokens: TokenStore }) {
  const route = useRoute();
  // The UI is served by the API server itself: the API sits beside index.html
  // (the origin's root, or a prefix when a reverse proxy mounts Weft under one).
  const api = useMemo(
    () => new ApiClient(location.origin + location.pathname.replace(/\/[^/]*$/, ''), tokens),
    [tokens],
  );
  const { project, segments } = route;
  const [view = 'calls', a, b, c] = segments;
  useEffect(() => {
    if (project) rememberProject(project);
  }, [project]);

  let body = <NotFound />;
  if (project === undefined) body = <ProjectPicker api={api} />;
  else if (view === 'calls' && a) body = <CallView key={a} id={a} />;
  else if (view === 'calls') body = <CallsView route={route} />;
  else if (view === 'sessions' && a) body = <SessionView key={a} sessionId={a} />;
  else if (view === 'sessions') body = <SessionsView />;
  else if (view === 'trace' && a) body = <TraceView key={a} route={route} traceId={a} />;
  else if (view === 'objects' && a) body = <ObjectView key={a} route={route} name={a} />;
  else if (view === 'objects') body = <ObjectsView />;
  else if (view === 'tables' && a) body = <TableView key={a} digest={a} />;
  else if (view === 'evals' && a === 'compare' && b && c) body = <EvalCompareView aId={b} bId={c} />;
  else if (view === 'evals') body = <EvalsView />;

  return (
    <>
      <header class="topbar">
        <a class="brand" href="#/">
          weft
        </a>
        {project && (
          <>
            <a class="project" href="#/" title="Switch project">
              {project}
            </a>
            <nav aria-label="Views">
              {NAV.map((n) => (
                <a
                  key={n.view}
                  href={href(project, [n.view])}
                  aria-current={
                    view === n.view || (n.view === 'calls' && view === 'trace') ? 'page' : undefined
                  }
                >
                  {n.label}
                </a>
              ))}
            </nav>
          </>
        )}
      </header>
      <main>
        {project === undefined ? (
          body
        ) : (
          <appContext.Provider value={{ api, project }}>{body}</appContext.Provider>
        )}
      </main>
      <TokenDialog tokens={tokens} />
    </>
  );
}

function NotFound() {
  return (
    <div class="view">
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. <a href="#/">Start over</a>.
      </p>
    </div>
  );
}
