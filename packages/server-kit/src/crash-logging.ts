import pino, { type DestinationStream } from 'pino';

/**
 * What a process does with an exception or a rejection that nothing handled: log it, with its
 * stack, the process and its role, as one JSON line on stderr (written at once), then exit with 1
 * as Node would; its supervisor or systemd starts it again (docs/operations.md, "Crashes").
 */
export function crashHandlers(
  role: string,
  destination: DestinationStream = pino.destination({ dest: 2, sync: true }),
  exit: (code: number) => void = (code) => process.exit(code),
) {
  const log = pino({ base: { pid: process.pid, role } }, destination);
  return {
    uncaughtException: (error: Error, origin: string) => {
      log.fatal({ err: error, origin }, 'uncaught exception; exiting');
      exit(1);
    },
    unhandledRejection: (reason: unknown) => {
      log.fatal({ err: reason }, 'unhandled promise rejection; exiting');
      exit(1);
    },
  };
}

export function installCrashLogging(role: string): void {
  const handlers = crashHandlers(role);
  process.on('uncaughtException', handlers.uncaughtException);
  process.on('unhandledRejection', handlers.unhandledRejection);
}
