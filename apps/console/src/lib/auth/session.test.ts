import { describe, expect, it } from 'vitest';
import { buildAuthUser } from '../../test/server';
import { landingPath, mayOpen, safeRedirect } from './session';

describe('landing page (docs/contract.md, "States and transitions")', () => {
  it('is the dashboard for a user holding it', () => {
    expect(landingPath(buildAuthUser(['recipes', 'dashboard']))).toBe('/account/dashboard');
  });
  it("is the first module's page otherwise", () => {
    expect(landingPath(buildAuthUser(['recipes', 'users']))).toBe('/account/recipes');
    expect(landingPath(buildAuthUser(['device_event_template']))).toBe('/account/device_event_templates');
  });
  it('is no_access for a user without modules', () => {
    expect(landingPath(buildAuthUser([]))).toBe('/account/no_access');
  });
});

describe('which account pages a user may open (docs/contract.md, "States and transitions")', () => {
  const user = buildAuthUser(['recipes', 'device_event_template']);
  it.each([
    ['/account/recipes', true],
    ['/account/recipes/sets/12', true],
    ['/account/device_event_templates/events/add', true],
    ['/account/profile', true],
    ['/account/no_access', true],
    ['/account/dashboard', false],
    ['/account/users', false],
    ['/account/profile-hack', false],
  ])('%s → %s', (path, allowed) => {
    expect(mayOpen(path, user)).toBe(allowed);
  });
});

describe('the notifications page, whose address names no module', () => {
  it.each([
    [['telemetry'], true],
    [['telemetry', 'recipes'], true],
    [['recipes', 'dashboard'], false],
  ] as const)('%j → %s', (modules, allowed) => {
    expect(mayOpen('/account/notify', buildAuthUser(modules))).toBe(allowed);
  });
});

describe('redirect query', () => {
  it.each([
    ['/account/recipes?page=2', '/account/recipes?page=2'],
    ['https://evil.example/', null],
    ['//evil.example/', null],
    ['/\\evil.example/', null],
    [null, null],
  ])('%j → %j', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });
});
