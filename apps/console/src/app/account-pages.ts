/**
 * The modules of the account frame and of each page one level below `/account/`, by its path
 * segment. The router loads them (`router.tsx`; `account-pages.test.ts` holds the two to agree),
 * and the build lists the scripts and stylesheets each needs (`vite.config.ts`, the file
 * `CONSOLE_PRELOADS_FILE` of the contracts), which the server preloads in the account page it sends.
 * Paths are relative to `apps/console`.
 */
export const ACCOUNT_FRAME_MODULE = 'src/app/layout/account-layout.tsx';

export const ACCOUNT_PAGE_MODULES: Readonly<Record<string, string>> = {
  dashboard: 'src/features/dashboard/routes/dashboard-page.tsx',
  no_access: 'src/app/routes/no-access-page.tsx',
  profile: 'src/features/profile/routes/profile-page.tsx',
  telemetry: 'src/features/telemetry/routes/telemetry-page.tsx',
  notify: 'src/features/telemetry/routes/notify-page.tsx',
  addresses: 'src/features/addresses/routes/addresses-page.tsx',
  devices: 'src/features/devices/routes/devices-page.tsx',
  recipes: 'src/features/recipes/routes/recipes-page.tsx',
  device_event_templates: 'src/app/routes/device-event-templates-page.tsx',
  requests: 'src/features/complaints/routes/complaints-page.tsx',
  users: 'src/features/users/routes/users-page.tsx',
  settings: 'src/features/settings/routes/settings-page.tsx',
  billing: 'src/features/billing/routes/billing-page.tsx',
};
