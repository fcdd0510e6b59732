// A small file system of the fault suite's own for the SQLite database: a tmpfs mounted on a
// temporary folder (we are root with CAP_SYS_ADMIN), which can be filled to the last byte,
// emptied again, and remounted read-only or read-write. Always unmount it in a `finally`.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @typedef {object} SmallDisk
 * @property {string} dir                 where it is mounted
 * @property {() => number} fill          writes a file until the disk is full; answers its size in bytes
 * @property {() => void} free            removes that file
 * @property {(mode: 'ro' | 'rw') => void} remount  throws when the kernel refuses (EBUSY: a file is open for writing)
 * @property {() => void} unmount         unmounts (lazily when busy) and removes the folder
 */

/**
 * @param {number} sizeMb
 * @returns {SmallDisk}
 */
export function mountTmpfs(sizeMb) {
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-faults-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0777`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = join(dir, 'filler');
  let mounted = true;
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      let written = 0;
      try {
        for (const size of [1 << 20, 1 << 16, 1 << 12, 512]) {
          const chunk = Buffer.alloc(size);
          for (;;) {
            try {
              written += writeSync(fd, chunk);
            } catch (error) {
              if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return written;
    },
    free() {
      rmSync(filler, { force: true });
    },
    remount(mode) {
      execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' });
    },
    unmount() {
      if (!mounted) return;
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' }); // something still holds it: detach
      }
      mounted = false;
      rmdirSync(dir);
    },
  };
}
