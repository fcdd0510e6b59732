export { buildApp, type AppOptions } from './app.js';
export { loadConfig, type Config } from './lib/config.js';
