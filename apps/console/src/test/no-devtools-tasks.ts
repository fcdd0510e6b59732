// React's development build names a DevTools task for every element it creates
// (`console.createTask`, for async stack traces in a browser's DevTools). Tests have no DevTools to
// read them, and Node's implementation costs about a tenth of a console test's CPU time; without it
// React skips the naming. The first setup file (vitest.config.ts), so it runs before React loads.
delete (console as { createTask?: unknown }).createTask;
