import { useEffect, useMemo } from 'preact/hooks';
import { ApiClient, type TokenStore } from './api/index.js';
import { appContext } from './hooks/index.js';
import { TokenDialog, ViewBoundary } from './components/index.js';
import { href, useRoute } from './router/index.js';
import { ProjectPicker, rememberProject, SECTION_GROUPS, SECTIONS, sectionOf } from './views/index.js';

/**
 * The shell: the top bar, the project's sections grouped in a side
 * navigation, the view the address names inside its own error boundary, and
 * the token prompt.
 */
export function App({ tokens }: { tokens: TokenStore }) {
  const route = useRoute();
  // The UI is served by the API server itself: the API sits beside index.html
  // (the origin's root, or a prefix when a reverse proxy mounts Weft under one).
  const api = useMemo(
    () => new ApiClient(location.origin + location.pathname.replace(/\/[^/]*$/, ''), tokens),
    [tokens],
  );
  const { project, segments } = route;
  useEffect(() => {
    if (project) rememberProject(project);
  }, [project]);
  const section = project === undefined ? undefined : sectionOf(segments);
  const view =
    project === undefined ? (
      <ProjectPicker api={api} />
    ) : (
      (section?.render(segments.length === 0 ? [section.id] : segments, route) ?? <NotFound />)
    );
  // A new address is a new boundary: a view that failed does not stay failed elsewhere.
  const boundaryKey = `${project ?? ''}/${segments.join('/')}`;

  return (
    <div class={`shell${project === undefined ? ' no-project' : ''}`}>
      <header class="topbar">
        <a class="brand" href="#/">
          weft
        </a>
        {project && (
          <a class="project" href="#/" title="Switch project">
            {project}
          </a>
        )}
      </header>
      {project && (
        <nav class="sidenav" aria-label="Sections">
          {SECTION_GROUPS.map((group) => {
            const entries = SECTIONS.filter((s) => s.group === group);
            if (entries.length === 0) return null;
            return (
              <div key={group} class="nav-group">
                <div class="nav-group-label">{group}</div>
                {entries.map((s) => (
                  <a
                    key={s.id}
                    href={href(project, [s.id])}
                    aria-current={s === section ? 'page' : undefined}
                  >
                    {s.label}
                  </a>
                ))}
              </div>
            );
          })}
        </nav>
      )}
      <main>
        <ViewBoundary key={boundaryKey}>
          {project === undefined ? (
            view
          ) : (
            <appContext.Provider value={{ api, project }}>{view}</appContext.Provider>
          )}
        </ViewBoundary>
      </main>
      <TokenDialog tokens={tokens} />
    </div>
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
