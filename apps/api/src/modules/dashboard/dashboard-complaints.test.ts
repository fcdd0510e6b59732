import type { Complaint, DeviceStat } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildAddress, buildDevice, buildOrganisation } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

/** A stat device's open events and complaints: the answer leaves out a count of none. */
function problems(stat: DeviceStat, deviceId: number) {
  const device = stat.devices.find((d) => d.id === deviceId);
  expect(device).toBeDefined();
  return { open_events: device?.open_events ?? 0, open_complaints: device?.open_complaints ?? 0 };
}

/** An organisation with two devices and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const oven = await buildDevice(t.db, org.organisationId, { name: 'A oven' });
  const fryer = await buildDevice(t.db, org.organisationId, { name: 'B fryer' });
  const stat = async (url = '/api/devices/stat') => {
    const res = await client.get(url);
    expect(res.statusCode).toBe(200);
    return res.json<{ data: DeviceStat }>().data;
  };
  const file = async (body: Record<string, unknown>) => {
    const res = await client.post('/api/alerts/', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Complaint }>().data;
  };
  const move = async (id: number, status: string) => {
    const res = await client.post(`/api/alerts/${id}/events`, { status });
    expect(res.statusCode, res.body).toBe(201);
  };
  return { ...org, client, oven, fryer, stat, file, move };
}

describe('issueReports and open complaints', () => {
  it('counts a device named by an open complaint, at once, until the complaint is resolved or closed', async () => {
    const { oven, fryer, stat, file, move } = await setup();
    const before = await stat();
    expect(before.counters.issueReports).toBe(0);
    // Kept: the same answer again.
    expect((await stat()).counters.issueReports).toBe(0);

    const complaint = await file({ title: 'Door seal', device_id: oven.id });
    const filed = await stat();
    expect(filed.counters.issueReports).toBe(1);
    expect(filed.issues_count).toBe(1);
    expect(problems(filed, oven.id)).toEqual({ open_events: 0, open_complaints: 1 });
    expect(problems(filed, fryer.id)).toEqual({ open_events: 0, open_complaints: 0 });

    await move(complaint.id, 'in_progress');
    expect((await stat()).counters.issueReports).toBe(1);
    await move(complaint.id, 'resolved');
    expect((await stat()).counters.issueReports).toBe(0);
    await move(complaint.id, 'in_progress');
    expect((await stat()).counters.issueReports).toBe(1);
    await move(complaint.id, 'closed');
    const closed = await stat();
    expect(closed.counters.issueReports).toBe(0);
    expect(problems(closed, oven.id).open_complaints).toBe(0);
  });

  it('counts a device once with several complaints and an open event; the type stat too', async () => {
    const { organisationId, oven, fryer, stat, file } = await setup();
    await file({ title: 'One', device_id: oven.id });
    await file({ title: 'Two', device_id: oven.id });
    const now = new Date().toISOString();
    await t.db
      .insertInto('device_events')
      .values({
        organisation_id: organisationId,
        device_id: oven.id,
        kind: 'manual',
        severity: 'warning',
        started_ts: Date.now(),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const both = await stat();
    expect(both.counters.issueReports).toBe(1);
    expect(problems(both, oven.id)).toEqual({ open_events: 1, open_complaints: 2 });

    await file({ title: 'Three', device_id: fryer.id });
    expect((await stat()).counters.issueReports).toBe(2);
    expect((await stat('/api/devices/stat/combi_oven')).counters.issueReports).toBe(2);
  });

  it("counts no device for a complaint about an address, nor for another organisation's complaints", async () => {
    const { organisationId, stat, file } = await setup();
    const address = await buildAddress(t.db, organisationId);
    await file({ title: 'Ventilation', address_id: address.id });
    expect((await stat()).counters.issueReports).toBe(0);

    const other = await setup();
    await other.file({ title: 'Theirs', device_id: other.oven.id });
    expect((await other.stat()).counters.issueReports).toBe(1);
    const mine = await stat();
    expect(mine.counters.issueReports).toBe(0);
    expect(mine.devices.map((d) => d.open_complaints ?? 0)).toEqual([0, 0]);
  });
});
