import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { loginWithRedirect, paths } from '../config/paths';
import { accountLoader, guestLoader } from '../lib/auth/loaders';
import { LoginPage } from '../features/auth/routes/login-page';
import { prefetchReferenceData } from '../lib/reference-data/use-reference-data';
import { ACCOUNT_ROUTE_ID } from '../lib/auth/use-current-user';
import { forgetUser, isSignedInAndNotGuest, resetSession } from '../lib/auth/session';
import { onSessionEnded } from '../lib/api-client';
import { loadAccountTexts } from '../lib/i18n';
import { loadChunk } from '../lib/lazy-route';
import { AuthLayout } from './layout/auth-layout';
import { NotFoundPage, StandaloneNotFoundPage } from './routes/not-found-page';
import type { RouteHandle } from './route-handle';
import { PageErrorSlot } from './routes/page-error-slot';
import { RouteError } from './routes/route-error';

/** A page loaded on demand, with docs/contract.md, "Constants and limits"'s chunk timeout; `name` is the component's export. */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => ({ Component: (await loadChunk(load))[name] as ComponentType });
}

/**
 * The routes of docs/contract.md, "Screens and routes". Domain screens join as their issues land; a held module's path without
 * its screen shows the not-found page inside the account frame.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    HydrateFallback: PageLoader,
    children: [
      { index: true, loader: () => redirect(paths.auth.login) },
      {
        path: 'auth',
        Component: AuthLayout,
        children: [
          { index: true, loader: () => redirect(paths.auth.login) },
          // The most visited entry is in the first bundle: no second round trip before it shows.
          { path: 'login', loader: guestLoader, Component: LoginPage },
          {
            path: 'register',
            loader: guestLoader,
            lazy: page(() => import('../features/auth/routes/register-page'), 'RegisterPage'),
          },
          {
            path: 'forgot-password',
            loader: guestLoader,
            lazy: page(() => import('../features/auth/routes/forgot-password-page'), 'ForgotPasswordPage'),
          },
          {
            path: 'reset-password',
            loader: guestLoader,
            lazy: page(() => import('../features/auth/routes/reset-password-page'), 'ResetPasswordPage'),
          },
        ],
      },
      { path: 'auth/logout', lazy: page(() => import('../features/auth/routes/logout-page'), 'LogoutPage') },
      { path: 'logout', loader: () => redirect(paths.auth.logout) },
      {
        path: 'account',
        id: ACCOUNT_ROUTE_ID,
        loader: async (args) => {
          const result = await accountLoader(args);
          // The reference lists start loading now, beside the frame's own script, not after it;
          // in a task of their own, not in the router's start.
          if (!(result instanceof Response)) setTimeout(() => prefetchReferenceData(result.user), 0);
          return result;
        },
        // The module check of docs/contract.md, "States and transitions" runs on every navigation to another page (and on an explicit
        // revalidation), not only on entering the area. A change of the query string alone (a
        // list's search, filters, sort, tab) stays on the same page: no check, and no
        // reference-data round trip on every keystroke.
        shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
          currentUrl.pathname !== nextUrl.pathname ||
          (currentUrl.search === nextUrl.search && defaultShouldRevalidate),
        // The account screens' Russian texts load beside the layout (lib/i18n.ts).
        lazy: page(
          () =>
            Promise.all([import('./layout/account-layout'), loadAccountTexts()]).then(([layout]) => layout),
          'AccountLayout',
        ),
        children: [
          {
            // A page that fails to open (no connection, a part missing) says so inside the frame:
            // header and sidebar stay (app/routes/page-error.tsx).
            errorElement: <PageErrorSlot />,
            children: [
              { index: true, loader: () => redirect(paths.account.dashboard) },
              {
                path: 'dashboard',
                handle: { title: 'Dashboard' } satisfies RouteHandle,
                lazy: page(() => import('../features/dashboard/routes/dashboard-page'), 'DashboardPage'),
              },
              {
                path: 'no_access',
                handle: { title: 'No access' } satisfies RouteHandle,
                lazy: page(() => import('./routes/no-access-page'), 'NoAccessPage'),
              },
              {
                path: 'profile',
                handle: { title: 'Profile' } satisfies RouteHandle,
                lazy: page(() => import('../features/profile/routes/profile-page'), 'ProfilePage'),
              },
              {
                path: 'telemetry',
                handle: { title: 'Telemetry' } satisfies RouteHandle,
                lazy: page(() => import('../features/telemetry/routes/telemetry-page'), 'TelemetryPage'),
              },
              {
                path: 'notify',
                handle: { title: 'Notifications' } satisfies RouteHandle,
                lazy: page(() => import('../features/telemetry/routes/notify-page'), 'NotifyPage'),
              },
              {
                path: 'addresses',
                children: [
                  {
                    index: true,
                    handle: { title: 'Addresses' } satisfies RouteHandle,
                    lazy: page(() => import('../features/addresses/routes/addresses-page'), 'AddressesPage'),
                  },
                  {
                    path: 'add',
                    handle: { title: 'Add address' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/addresses/routes/address-add-page'),
                      'AddressAddPage',
                    ),
                  },
                  // Rooms are listed on their address's page; there is no rooms list of its own.
                  { path: 'room', loader: () => redirect(paths.account.addresses.list) },
                  {
                    path: 'room/add',
                    handle: { title: 'Add room' } satisfies RouteHandle,
                    lazy: page(() => import('../features/addresses/routes/room-add-page'), 'RoomAddPage'),
                  },
                  {
                    path: 'room/:roomId',
                    handle: { title: 'Room' } satisfies RouteHandle,
                    lazy: page(() => import('../features/addresses/routes/room-page'), 'RoomPage'),
                  },
                  {
                    path: ':addressId',
                    handle: { title: 'Address' } satisfies RouteHandle,
                    lazy: page(() => import('../features/addresses/routes/address-page'), 'AddressPage'),
                  },
                ],
              },
              {
                path: 'devices',
                children: [
                  {
                    index: true,
                    handle: { title: 'Equipment' } satisfies RouteHandle,
                    lazy: page(() => import('../features/devices/routes/devices-page'), 'DevicesPage'),
                  },
                  {
                    path: 'add',
                    handle: { title: 'Add device' } satisfies RouteHandle,
                    lazy: page(() => import('../features/devices/routes/device-add-page'), 'DeviceAddPage'),
                  },
                  // The groups list is a view of the devices list (docs/places-and-equipment.md).
                  { path: 'groups', loader: () => redirect(paths.account.devices.groups) },
                  {
                    path: 'groups/add',
                    handle: { title: 'Add group' } satisfies RouteHandle,
                    lazy: page(() => import('../features/devices/routes/group-add-page'), 'GroupAddPage'),
                  },
                  {
                    path: 'groups/:id',
                    handle: { title: 'Device group' } satisfies RouteHandle,
                    lazy: page(() => import('../features/devices/routes/group-page'), 'GroupPage'),
                  },
                  {
                    path: ':id',
                    handle: { title: 'Device' } satisfies RouteHandle,
                    lazy: page(() => import('./routes/device-page'), 'DevicePage'),
                  },
                ],
              },
              {
                path: 'recipes',
                children: [
                  {
                    index: true,
                    handle: { title: 'Recipes' } satisfies RouteHandle,
                    lazy: page(() => import('../features/recipes/routes/recipes-page'), 'RecipesPage'),
                  },
                  {
                    path: 'add',
                    handle: { title: 'Add recipe' } satisfies RouteHandle,
                    lazy: page(() => import('../features/recipes/routes/recipe-add-page'), 'RecipeAddPage'),
                  },
                  // The sets list is a view of the recipes list, as the groups are of the devices list.
                  { path: 'sets', loader: () => redirect(paths.account.recipes.sets) },
                  {
                    path: 'sets/add',
                    handle: { title: 'Add recipe set' } satisfies RouteHandle,
                    lazy: page(() => import('../features/recipes/routes/set-add-page'), 'SetAddPage'),
                  },
                  {
                    path: 'sets/:id',
                    handle: { title: 'Recipe set' } satisfies RouteHandle,
                    lazy: page(() => import('../features/recipes/routes/set-page'), 'SetPage'),
                  },
                  {
                    path: ':id',
                    handle: { title: 'Recipe' } satisfies RouteHandle,
                    lazy: page(() => import('../features/recipes/routes/recipe-page'), 'RecipePage'),
                  },
                ],
              },
              {
                path: 'device_event_templates',
                children: [
                  {
                    index: true,
                    handle: { title: 'Current templates' } satisfies RouteHandle,
                    lazy: page(
                      () => import('./routes/device-event-templates-page'),
                      'DeviceEventTemplatesPage',
                    ),
                  },
                  {
                    path: 'add',
                    handle: { title: 'Add template' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/event-templates/routes/template-add-page'),
                      'TemplateAddPage',
                    ),
                  },
                  // The events list is a tab of the templates list.
                  { path: 'events', loader: () => redirect(paths.account.deviceEventTemplates.events()) },
                  {
                    path: 'events/add',
                    handle: { title: 'Add event' } satisfies RouteHandle,
                    lazy: page(() => import('../features/events/routes/event-add-page'), 'EventAddPage'),
                  },
                  {
                    path: 'events/:id',
                    handle: { title: 'Device event' } satisfies RouteHandle,
                    lazy: page(() => import('../features/events/routes/event-page'), 'EventPage'),
                  },
                  {
                    path: ':id',
                    handle: { title: 'Current template' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/event-templates/routes/template-page'),
                      'TemplatePage',
                    ),
                  },
                ],
              },
              {
                path: 'requests',
                children: [
                  {
                    index: true,
                    handle: { title: 'Complaints' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/complaints/routes/complaints-page'),
                      'ComplaintsPage',
                    ),
                  },
                  {
                    path: 'add',
                    handle: { title: 'New complaint' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/complaints/routes/complaint-add-page'),
                      'ComplaintAddPage',
                    ),
                  },
                  {
                    path: ':id',
                    handle: { title: 'Complaint' } satisfies RouteHandle,
                    lazy: page(() => import('../features/complaints/routes/complaint-page'), 'ComplaintPage'),
                  },
                ],
              },
              {
                path: 'users',
                children: [
                  {
                    index: true,
                    handle: { title: 'Users' } satisfies RouteHandle,
                    lazy: page(() => import('../features/users/routes/users-page'), 'UsersPage'),
                  },
                  {
                    path: 'add',
                    handle: { title: 'Invite user' } satisfies RouteHandle,
                    lazy: page(() => import('../features/users/routes/user-add-page'), 'UserAddPage'),
                  },
                  // The roles list is a view of the users page.
                  { path: 'roles', loader: () => redirect(paths.account.users.roles) },
                  {
                    path: 'roles/add',
                    handle: { title: 'Add access role' } satisfies RouteHandle,
                    lazy: page(() => import('../features/users/routes/role-add-page'), 'RoleAddPage'),
                  },
                  {
                    path: 'roles/:id',
                    handle: { title: 'Access role' } satisfies RouteHandle,
                    lazy: page(() => import('../features/users/routes/role-page'), 'RolePage'),
                  },
                  {
                    path: ':id',
                    handle: { title: 'User' } satisfies RouteHandle,
                    lazy: page(() => import('../features/users/routes/user-page'), 'UserPage'),
                  },
                ],
              },
              {
                path: 'settings',
                children: [
                  {
                    index: true,
                    handle: { title: 'Settings' } satisfies RouteHandle,
                    lazy: page(() => import('../features/settings/routes/settings-page'), 'SettingsPage'),
                  },
                  {
                    path: 'add',
                    handle: { title: 'Add integration' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/settings/routes/integration-add-page'),
                      'IntegrationAddPage',
                    ),
                  },
                  {
                    path: 'integrations/telegram/:token',
                    handle: { title: 'Telegram' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/settings/routes/telegram-binding-page'),
                      'TelegramBindingPage',
                    ),
                  },
                  {
                    path: ':id',
                    handle: { title: 'Integration' } satisfies RouteHandle,
                    lazy: page(
                      () => import('../features/settings/routes/integration-page'),
                      'IntegrationPage',
                    ),
                  },
                ],
              },
              {
                path: 'billing',
                handle: { title: 'Billing' } satisfies RouteHandle,
                lazy: page(() => import('../features/billing/routes/billing-page'), 'BillingPage'),
              },
              {
                path: '*',
                handle: { title: 'Page not found' } satisfies RouteHandle,
                Component: NotFoundPage,
              },
            ],
          },
        ],
      },
      { path: '*', Component: StandaloneNotFoundPage },
    ],
  },
];

let router: ReturnType<typeof createBrowserRouter> | undefined;

/**
 * The console's router, created (and so started: its first navigation runs the loaders) on the
 * first call. `main.tsx` calls it in a task of its own after the modules have been evaluated,
 * so that work is not one long task with their evaluation.
 */
export function startRouter() {
  router ??= createBrowserRouter(routes);
  return router;
}

// docs/contract.md, "Error catalogue": a 401 or 419 while a user is signed in and not guest signs them out, back to login.
onSessionEnded(() => {
  if (!router || !isSignedInAndNotGuest()) return;
  const { pathname, search } = router.state.location;
  forgetUser();
  if (pathname === paths.auth.login) resetSession();
  else void router.navigate(loginWithRedirect(pathname + search), { replace: true }).then(resetSession);
});
