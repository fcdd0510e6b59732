// Devices that can talk to a running Kontrol: credentials issued through the API, as the console
// does it (POST /api/devices/{id}/credential), for the benchmarks and the crash test.

/**
 * The organisation's first `count` devices that have a controller id, each with a fresh credential.
 * @param {string} baseURL
 * @param {{ cookieHeader: string, xsrf: string }} admin  a signed-in session (test-support/server.mjs apiLogin)
 * @param {number} count
 * @returns {Promise<{ id: number, controllerId: string, credential: string, typeId: number }[]>}
 */
export async function issueCredentials(baseURL, admin, count) {
  const headers = { cookie: admin.cookieHeader, 'x-xsrf-token': admin.xsrf, accept: 'application/json' };
  const list = await fetch(`${baseURL}/api/devices/`, { headers });
  if (!list.ok) throw new Error(`GET /api/devices/ answered ${list.status}`);
  /** @type {{ data: { id: number, controller_id: string | null, type_id: number }[] }} */
  const body = await list.json();
  const smart = body.data.filter((device) => device.controller_id !== null).slice(0, count);
  if (smart.length < count) throw new Error(`only ${smart.length} devices have a controller id`);
  const issued = [];
  for (const device of smart) {
    const res = await fetch(`${baseURL}/api/devices/${device.id}/credential`, { method: 'POST', headers });
    if (!res.ok) throw new Error(`credential of device ${device.id}: ${res.status}`);
    /** @type {{ data: { credential: string } }} */
    const answer = await res.json();
    issued.push({
      id: device.id,
      controllerId: /** @type {string} */ (device.controller_id),
      credential: answer.data.credential,
      typeId: device.type_id,
    });
  }
  return issued;
}
