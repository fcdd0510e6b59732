import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it, decoded enough for assertions. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-case. */
  to: string[];
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** The Subject header, RFC 2047 encoded words decoded. */
  subject: string;
  /** The text/plain body, transfer encoding and charset decoded, line ends as `\n`. */
  text: string;
  /** Header names lower-case, values unfolded (not decoded). */
  headers: Map<string, string>;
  raw: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  /** Every accepted message, oldest first. */
  readonly messages: ReceivedMail[];
  /** The accepted messages with `address` among their (lower-case) envelope recipients, oldest first. */
  mailsTo(address: string): ReceivedMail[];
  /** How many messages were refused since the start (see `reject`). */
  readonly rejectedCount: number;
  /** Messages fully received whose reply is still held back (see `setDelay`). */
  readonly holdingCount: number;
  /** Connection errors (a client hanging up mid-session); kept, so they cannot crash the run. */
  readonly errors: Error[];
  /** Refuses every following message at the end of DATA with this reply, until `accept()`. */
  reject(code?: number, message?: string): void;
  accept(): void;
  /** Holds the reply to each following message for `ms` (a slow server); 0 answers at once. */
  setDelay(ms: number): void;
  /** The first message (already received or still to come) matching `predicate`. */
  waitForMail(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on an ephemeral port of 127.0.0.1 (no TLS, no AUTH) that keeps what it
 * receives, so tests read the e-mails the API sends exactly as a mail server would get them.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<{
    predicate: (mail: ReceivedMail) => boolean;
    resolve: (mail: ReceivedMail) => void;
  }>();
  let rejection: { code: number; message: string } | undefined;
  let rejectedCount = 0;
  let delayMs = 0;
  let holdingCount = 0;
  const errors: Error[] = [];

  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      const finish = () => {
        holdingCount -= 1;
        if (rejection) {
          rejectedCount += 1;
          callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('latin1');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const mail = parseMessage(
          raw,
          from,
          session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
        );
        messages.push(mail);
        for (const waiter of waiters) {
          if (waiter.predicate(mail)) {
            waiters.delete(waiter);
            waiter.resolve(mail);
          }
        }
        callback();
      };
      stream.on('end', () => {
        holdingCount += 1;
        setTimeout(finish, delayMs);
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      server.on('error', (error) => errors.push(error));
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    errors,
    mailsTo: (address) => messages.filter((mail) => mail.to.includes(address)),
    get rejectedCount() {
      return rejectedCount;
    },
    get holdingCount() {
      return holdingCount;
    },
    reject(code = 451, message = 'Temporary local problem, try again later') {
      rejection = { code, message };
    },
    accept() {
      rejection = undefined;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    waitForMail(predicate = () => true, timeoutMs = 5_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Splits a message (or a MIME part) into unfolded headers and its body, at the first empty line. */
function splitPart(raw: string): { headers: Map<string, string>; body: string } {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function parameter(headerValue: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(headerValue);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** `raw` holds one byte per char (latin1); the transfer encoding gives the bytes, the charset the text. */
function decodeBody(body: string, transferEncoding: string, charset: string): string {
  let bytes: Buffer;
  switch (transferEncoding.toLowerCase()) {
    case 'base64':
      bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
      break;
    case 'quoted-printable':
      bytes = decodeQuotedPrintable(body.replace(/=\n/g, ''));
      break;
    default:
      bytes = Buffer.from(body, 'latin1');
  }
  return new TextDecoder(charset || 'utf-8').decode(bytes);
}

function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words; adjacent ones are joined before decoding, as a character may span two. */
function decodeHeader(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1');
  let result = '';
  let last = 0;
  let pending: { charset: string; bytes: Buffer[] } | undefined;
  const flush = () => {
    if (pending) result += new TextDecoder(pending.charset).decode(Buffer.concat(pending.bytes));
    pending = undefined;
  };
  for (let match = word.exec(joined); match; match = word.exec(joined)) {
    const [all, charset = 'utf-8', encoding = 'B', text = ''] = match;
    if (match.index > last) {
      flush();
      result += joined.slice(last, match.index);
    }
    const bytes =
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text.replace(/_/g, ' '));
    if (pending && pending.charset.toLowerCase() !== charset.toLowerCase()) flush();
    pending ??= { charset, bytes: [] };
    pending.bytes.push(bytes);
    last = match.index + all.length;
  }
  flush();
  return result + joined.slice(last);
}

/** The first text/plain part of a (possibly multipart) entity; undefined when there is none. */
function findText(raw: string): string | undefined {
  const { headers, body } = splitPart(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  if (/^multipart\//i.test(type)) {
    const boundary = parameter(type, 'boundary');
    if (!boundary) return undefined;
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      const text = findText(part.replace(/^[ \t]*\n/, ''));
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (!/^text\/plain/i.test(type)) return undefined;
  const transfer = headers.get('content-transfer-encoding') ?? '7bit';
  // A part's body ends before the line break that precedes the next boundary.
  return decodeBody(body, transfer, parameter(type, 'charset') ?? 'utf-8').replace(/\n$/, '');
}

function parseMessage(raw: string, from: string, to: string[]): ReceivedMail {
  const { headers } = splitPart(raw);
  return {
    to,
    from,
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: (findText(raw) ?? '').replace(/\r\n/g, '\n'),
    headers,
    raw,
  };
}
