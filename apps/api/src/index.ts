export { buildApp, type AppOptions } from './app.js';
export { loadConfig, type Config } from './plugins/config.js';
