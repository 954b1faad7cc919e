import { render } from 'preact';
import { TokenStore } from './api/index.js';
import { App } from './app.js';
import { initialHash } from './router/index.js';
import { recentProjects } from './views/index.js';
import './styles/index.js';

const start = initialHash(location.search, location.hash, recentProjects());
// Replace rather than push, and drop `?project=` so reloads follow the hash.
if (start !== undefined) history.replaceState(null, '', `${location.pathname}${start}`);

render(<App tokens={new TokenStore()} />, document.getElementById('app')!);
