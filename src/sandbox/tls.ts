import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSignedCertificate {
  key: string;
  cert: string;
}

/**
 * Makes a fresh self-signed certificate for 127.0.0.1/localhost. Node has no X.509 writer, so
 * this shells out to `openssl` (present on Linux and macOS); a missing openssl is a clear error.
 */
export function makeSelfSignedCertificate(host: string): SelfSignedCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-tls-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    const san = /^[\d.]+$/.test(host) ? `IP:${host},DNS:localhost` : `DNS:${host},IP:127.0.0.1`;
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '2',
        '-subj',
        `/CN=${host}`,
        '-addext',
        `subjectAltName=${san}`,
      ],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'openssl is not installed'
        : String((error as Error).message);
    throw new Error(`cannot make a self-signed certificate for --tls: ${reason}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
