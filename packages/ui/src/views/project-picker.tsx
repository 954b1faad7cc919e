import { useState } from 'preact/hooks';
import { href, navigate } from '../router/route.js';

const RECENT_KEY = 'weft.recentProjects';
const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Projects opened before in this browser, most recent first. */
export function recentProjects(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string').slice(0, 10) : [];
  } catch {
    return [];
  }
}

export function rememberProject(project: string): void {
  const list = [project, ...recentProjects().filter((p) => p !== project)].slice(0, 10);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

/**
 * The start page: which project to look at. The read API is per project and
 * has no listing of projects, so the name is typed once and then remembered.
 */
export function ProjectPicker() {
  const [name, setName] = useState('');
  const recent = recentProjects();
  const valid = PROJECT_NAME.test(name);
  return (
    <div class="view picker-view">
      <h1>Open a project</h1>
      <form
        class="picker"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) navigate(href(name, ['calls']));
        }}
      >
        <label>
          Project name
          <input
            name="project"
            value={name}
            placeholder="my-project"
            onInput={(e) => setName((e.target as HTMLInputElement).value.trim())}
            aria-invalid={name !== '' && !valid}
          />
        </label>
        <button type="submit" class="button primary" disabled={!valid}>
          Open
        </button>
      </form>
      <p class="muted">
        The name your program passes to <code>init()</code>.
      </p>
      {recent.length > 0 && (
        <>
          <h2>Recent</h2>
          <ul class="recent">
            {recent.map((p) => (
              <li key={p}>
                <a href={href(p, ['calls'])}>{p}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
