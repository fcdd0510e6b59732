export { buildApp, type AppOptions } from './app.js';
export { loadConfig, type Config } from '@kontrol/server-kit';
