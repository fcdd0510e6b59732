import { DEVICE_LIST_MODULES } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { DEVICE_VIEWERS, REFERENCE_LISTS } from './lists';

describe('the reference lists', () => {
  it('let the holders of every module that shows devices read the devices and their types', () => {
    expect([...DEVICE_VIEWERS].sort()).toEqual([...DEVICE_LIST_MODULES].sort());
    expect(REFERENCE_LISTS.devices.modules).toBe(DEVICE_VIEWERS);
    expect(REFERENCE_LISTS.deviceTypes.modules).toBe(DEVICE_VIEWERS);
  });
});
