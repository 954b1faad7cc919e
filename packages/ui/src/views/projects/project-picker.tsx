import { useState } from 'preact/hooks';
import type { ApiClient } from '../../api/index.js';
import { TimeAgo } from '../../components/index.js';
import { useLoad } from '../../hooks/index.js';
import { formatCount } from '../../model/index.js';
import { ProjectStats } from './project-stats.js';
import { href, navigate } from '../../router/index.js';

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
 * The start page: which project to look at — the server's projects to click
 * (with call counts and last activity), and a name field for a project the
 * list cannot show (a token scoped to one project may not list them).
 */
export function ProjectPicker({ api }: { api: ApiClient }) {
  const projects = useLoad((signal) => api.listProjects(signal), [api]);
  const [name, setName] = useState('');
  const recent = recentProjects();
  const valid = PROJECT_NAME.test(name);
  return (
    <div class="view picker-view">
      <h1>Open a project</h1>
      {projects.data && projects.data.projects.length > 0 && (
        <table class="data-table project-list">
          <thead>
            <tr>
              <th>Project</th>
              <th class="col-num">Calls</th>
              <th class="col-num">24 h</th>
              <th class="col-num">7 d</th>
              <th class="col-num">Errors 24 h</th>
              <th class="col-num">7 d</th>
              <th class="col-num">Cost 24 h</th>
              <th class="col-num">7 d</th>
              <th class="col-time">Last call</th>
            </tr>
          </thead>
          <tbody>
            {projects.data.projects.map((p) => (
              <tr key={p.name} data-project={p.name}>
                <td>
                  <a href={href(p.name, ['traces'])}>{p.name}</a>
                </td>
                <td class="col-num">{formatCount(p.callCount)}</td>
                <ProjectStats api={api} project={p.name} />
                <td class="col-time">{p.lastCallAt === null ? '—' : <TimeAgo ms={p.lastCallAt} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {projects.data?.projects.length === 0 && <p class="muted">No project has data yet.</p>}
      <form
        class="picker"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) navigate(href(name, ['traces']));
        }}
      >
        <label>
          Or type a project name
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
                <a href={href(p, ['traces'])}>{p}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
