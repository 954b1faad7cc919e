export { type AppOptions, createApp } from './create-app.js';
