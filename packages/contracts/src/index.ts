export * from './constants.js';
export * from './acl.js';
export * from './modules.js';
export * from './auth.js';
export * from './errors.js';
export * from './messages.js';
export * from './pagination.js';
