// Waits until something accepts TCP connections on a port of 127.0.0.1 (a broker, nginx).
import { connect } from 'node:net';

/**
 * @param {number} port
 * @param {{ exited?: () => boolean, timeoutMs?: number, what?: string }} [options] `exited`: the
 *   process that should listen has ended (fail at once)
 */
export async function waitForPort(
  port,
  { exited = () => false, timeoutMs = 10_000, what = 'the process' } = {},
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`${what} exited before it listened on ${port}`);
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
