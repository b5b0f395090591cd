import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { tempDirForSuite } from '../helpers/temp-dir.js';
import { client, smallFleet } from './helpers.js';

const dir = tempDirForSuite('svc-sandbox-persist-');

describe('sandbox --state', () => {
  it('refuses a second sandbox on a state file another running sandbox uses (no lost changes)', async () => {
    const statePath = join(dir, 'shared.json');
    const first = await startSandbox({ fleet: smallFleet(), statePath });
    try {
      await expect(startSandbox({ fleet: smallFleet(), statePath })).rejects.toThrow(
        /shared\.json is in use by another sandbox \(pid \d+\)/,
      );
      const run = await cli(['sandbox', '--state', statePath]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('is in use by another sandbox');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      // The refused start changed nothing: the first sandbox's changes are all in the file.
      await client(first).ability('update-site-core-v1', { site_id_or_domain: 1 }, { method: 'POST' });
      expect(JSON.parse(readFileSync(statePath, 'utf8')).fleet.sites[0].core).toEqual({
        current: '6.8.3',
        new: null,
      });
    } finally {
      await first.close();
    }
    // Once the first one stopped, the file is free again; a dead process's lock is taken over.
    const again = await startSandbox({ fleet: smallFleet(), statePath });
    await again.close();
    writeFileSync(`${statePath}.lock`, '999999999\n');
    const afterCrash = await startSandbox({ fleet: smallFleet(), statePath });
    await afterCrash.close();
    expect(existsSync(`${statePath}.lock`)).toBe(false);
  });

  it('an empty lock file is one being written (refused while fresh), and a stale one is taken over', async () => {
    const statePath = join(dir, 'racing.json');
    writeFileSync(`${statePath}.lock`, '');
    await expect(startSandbox({ fleet: smallFleet(), statePath })).rejects.toThrow(
      /is in use by another sandbox/,
    );
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(`${statePath}.lock`, longAgo, longAgo);
    const started = await startSandbox({ fleet: smallFleet(), statePath });
    await started.close();
    expect(existsSync(`${statePath}.lock`)).toBe(false);
  });

  it('releases the state file when the start fails after taking it (port in use)', async () => {
    const statePath = join(dir, 'port.json');
    const busy = await startSandbox({ fleet: smallFleet() });
    try {
      const port = Number(new URL(busy.url).port);
      await expect(startSandbox({ fleet: smallFleet(), statePath, port })).rejects.toThrow(/already in use/);
      expect(existsSync(`${statePath}.lock`)).toBe(false);
    } finally {
      await busy.close();
    }
  });

  it('names the state file, not a temp file, when it cannot be written, and leaves no temp file', async () => {
    writeFileSync(join(dir, 'plain-file'), '');
    const run = await cli(['sandbox', '--state', join(dir, 'plain-file', 'state.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `cannot write the sandbox state file ${join(dir, 'plain-file', 'state.json')}`,
    );
    expect(run.stderr).not.toContain('.tmp');
  });

  it('keeps changes it could not save pending and reports them when stopped, instead of losing them', async () => {
    const sub = join(dir, 'vanishing');
    mkdirSync(sub);
    const statePath = join(sub, 'state.json');
    const sb = await startSandbox({ fleet: smallFleet(), statePath });
    rmSync(sub, { recursive: true });
    const changed = await client(sb).ability(
      'update-site-core-v1',
      { site_id_or_domain: 1 },
      { method: 'POST' },
    );
    expect(changed.status).toBe(500);
    expect(JSON.stringify(changed.body)).toContain(`cannot write the sandbox state file ${statePath}`);
    mkdirSync(sub);
    // The next flush (here: the stop) writes the change that failed to save before.
    await sb.close();
    expect(JSON.parse(readFileSync(statePath, 'utf8')).fleet.sites[0].core.new).toBeNull();
    expect(readdirSync(sub)).toEqual(['state.json']);
  });

  it('fails the stop, after closing the port, when the state cannot be saved', async () => {
    const sub = join(dir, 'gone');
    mkdirSync(sub);
    const statePath = join(sub, 'state.json');
    const sb = await startSandbox({ fleet: smallFleet(), statePath });
    await client(sb).control('POST', 'pending', { site: 2, kind: 'plugin', slug: 'x/x.php', to: '2.0' });
    rmSync(sub, { recursive: true });
    await client(sb).control('DELETE', 'pending', { site: 2, kind: 'plugin', slug: 'x/x.php' });
    await expect(sb.close()).rejects.toThrow(`cannot write the sandbox state file ${statePath}`);
    await expect(fetch(`${sb.url}/__sandbox/stats`)).rejects.toThrow();
  });

  it('refuses a state file whose content is not a sandbox state, with a clear message', async () => {
    const statePath = join(dir, 'shape.json');
    for (const fleet of [{}, { sites: 'none' }, { sites: [], users: [], apiKeys: [] }]) {
      writeFileSync(
        statePath,
        JSON.stringify({ format: 'svc-sandbox-state', version: 1, clock: 0, fleet, jobs: [] }),
      );
      const run = await cli(['sandbox', '--state', statePath]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${statePath}: not a sandbox state file`);
    }
  });
});
