import { render } from 'preact';
import { TokenStore } from './api/token-store.js';
import { App } from './app.js';
import './styles.css';

render(<App tokens={new TokenStore()} />, document.getElementById('app')!);
