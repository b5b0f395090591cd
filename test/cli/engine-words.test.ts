import * as fs from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendHistory, type HistoryRecord } from '../../src/apply/history.js';
import { openJournal } from '../../src/apply/journal.js';
import { withApplyLock } from '../../src/apply/session.js';
import { ensureStateDir, statePaths } from '../../src/apply/state-dir.js';
import { cliWords } from '../../src/cli/hints.js';
import {
  loadDesired,
  loadSettings,
  openDashboard,
  readPlanFile,
  requireDesired,
  type SvcError,
} from '../../src/index.js';
import { toolWords } from '../../src/mcp/words.js';
import { cli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The engine says what happened (a code, a reason, data); the CLI words it with its own commands.
 * A desired state with errors is the case every front end meets first.
 */
describe('the CLI words the engine’s refusals', () => {
  it('a desired state with errors: no CLI words in the engine, `svc-gitops validate -c` in the CLI', async () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'bad.yaml'), 'version: 1\nupdates: 3\n');
    const load = await loadDesired({ cwd, config: 'bad.yaml' });
    let refused: SvcError | undefined;
    try {
      requireDesired(load);
    } catch (error) {
      refused = error as SvcError;
    }
    expect(refused).toMatchObject({
      code: 'CONFIG_INVALID',
      details: { reason: 'desired-invalid', path: 'bad.yaml' },
    });
    expect(refused?.hint).toBeUndefined();

    const run = await cli(['plan', '-c', 'bad.yaml'], {
      cwd,
      env: { SVC_URL: 'https://dashboard.example.test' },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('fix them and check with `svc-gitops validate -c bad.yaml`');
  });

  it('a plan file missing, not JSON, or not a plan: a reason in the engine, `plan --out FILE` in the CLI', async () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'broken.json'), '{ not json');
    writeFileSync(join(cwd, 'other.json'), '{"format_version": 3}');
    const cases = [
      ['missing.json', 'plan-file-unreadable', 'save a plan with `svc-gitops plan --out FILE` (format json)'],
      [
        'broken.json',
        'plan-file-not-json',
        'apply takes the JSON plan written by `svc-gitops plan --out FILE`\n',
      ],
      [
        'other.json',
        'plan-file-schema',
        'apply takes the JSON plan written by `svc-gitops plan --out FILE`, unedited: plan again',
      ],
    ] as const;
    for (const [file, reason, hint] of cases) {
      let refused: SvcError | undefined;
      try {
        readPlanFile(fs, join(cwd, file));
      } catch (error) {
        refused = error as SvcError;
      }
      expect(refused?.details.reason).toBe(reason);
      expect(refused?.hint).toBeUndefined();
      expect(refused?.message).not.toContain('--out');

      const run = await cli(['apply', file], { cwd, env: { SVC_URL: 'https://dashboard.example.test' } });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`  hint: ${hint}`);
    }
  });

  it('no dashboard or half a login: no variable names in the engine, SVC_* in the CLI, NAME_* in the tool server', async () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'svc-gitops.yaml'), 'version: 1\n');
    const refusal = (env: Record<string, string>): SvcError => {
      const { settings } = loadSettings({ env, fs, cwd, homeDir: cwd });
      try {
        openDashboard(settings).close();
      } catch (error) {
        return error as SvcError;
      }
      throw new Error('opened a dashboard without a login');
    };
    const url = 'https://dashboard.example.test';
    const cases = [
      [{}, 'no dashboard configured', 'set SVC_URL and credentials'],
      [{ SVC_URL: url }, 'no dashboard credentials configured', 'set SVC_USER and SVC_APP_PASSWORD'],
      [{ SVC_URL: url, SVC_USER: 'admin' }, 'a username is set (SVC_USER or the settings file)', 'SVC_TOKEN'],
      [
        { SVC_URL: url, SVC_APP_PASSWORD: 'abcd efgh ijkl mnop' },
        'an application password is set (SVC_APP_PASSWORD or the settings file)',
        'SVC_TOKEN (REST API v2 only)',
      ],
    ] as const;
    for (const [env, message, hint] of cases) {
      const refused = refusal(env);
      expect(refused.details.reason).toMatch(/^no-(dashboard|credentials)$/);
      expect(refused.hint).toBeUndefined();
      expect(refused.message).not.toMatch(/SVC_|svc-gitops/);
      const tool = toolWords(refused, 'acme');
      expect(`${tool.message} ${tool.hint}`).not.toContain('SVC_');
      expect(`${tool.message} ${tool.hint}`).toMatch(/ACME_(URL|USER)/);

      const run = await cli(['plan'], { cwd, env: { HOME: cwd, ...env } });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`[SETTINGS_INVALID]: ${message}`);
      expect(run.stderr).toContain(hint);
    }
  });

  it('a state directory or history file that cannot be written: a reason in apply/, the variable in each front end', () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'blocker'), 'a file, not a directory\n');
    const refusal = (work: () => void): SvcError => {
      try {
        work();
      } catch (error) {
        return error as SvcError;
      }
      throw new Error('wrote under a file');
    };
    const state = refusal(() =>
      ensureStateDir(fs, statePaths(join(cwd, 'blocker', 'state'), 'https://dashboard.example.test')),
    );
    const history = refusal(() =>
      appendHistory(fs, join(cwd, 'blocker', 'h', 'history.jsonl'), [{} as HistoryRecord]),
    );
    for (const [refused, reason] of [
      [state, 'state-dir-unwritable'],
      [history, 'history-unwritable'],
    ] as const) {
      expect(refused).toMatchObject({ code: 'IO_ERROR', details: { reason } });
      expect(refused.hint).toBeUndefined();
      expect(refused.message).not.toMatch(/SVC_|svc-gitops /);
    }
    expect(cliWords(state).hint).toBe('set SVC_GITOPS_STATE_DIR to a writable directory');
    // A variable of svc-gitops itself keeps its name in the tool server; a setting's takes the namespace.
    expect(toolWords(state, 'acme').hint).toBe('set SVC_GITOPS_STATE_DIR to a writable directory');
    expect(cliWords(history).hint).toBe(
      'make the history file writable, or set SVC_HISTORY_FILE to another path',
    );
    expect(toolWords(history, 'acme').hint).toBe(
      'make the history file writable, or set ACME_HISTORY_FILE to another path',
    );
  });

  it('a lock directory that cannot be made: a reason in apply/, SVC_GITOPS_LOCK_DIR in both front ends', async () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'blocker'), 'a file, not a directory\n');
    const paths = statePaths(join(cwd, 'state'), 'https://dashboard.example.test');
    const lock = { path: join(cwd, 'blocker', 'locks', 'x.lock'), dashboard: 'x' };
    let refused: SvcError | undefined;
    try {
      await withApplyLock(
        fs,
        paths,
        lock,
        new Date(0),
        () => {},
        async () => undefined,
      );
    } catch (error) {
      refused = error as SvcError;
    }
    expect(refused).toMatchObject({ code: 'IO_ERROR', details: { reason: 'lock-dir-unwritable' } });
    expect(refused?.hint).toBeUndefined();
    const hint = 'set SVC_GITOPS_LOCK_DIR (or XDG_STATE_HOME) to a writable directory';
    expect(cliWords(refused as SvcError).hint).toBe(hint);
    expect(toolWords(refused as SvcError, 'acme').hint).toBe(hint);
  });

  // /dev/full refuses every write with ENOSPC: a journal on a full disk, without faking one.
  it.runIf(fs.existsSync('/dev/full'))(
    'a journal that cannot be written: `apply --resume` in the CLI only',
    async () => {
      const journal = openJournal(fs, '/dev/full');
      let refused: SvcError | undefined;
      try {
        await journal.append({ type: 'run-end', run_id: 'r', at: '2026-01-01T00:00:00.000Z' } as never);
      } catch (error) {
        refused = error as SvcError;
      } finally {
        journal.close();
      }
      expect(refused).toMatchObject({ code: 'IO_ERROR', details: { reason: 'journal-unwritable' } });
      expect(refused?.hint).toBeUndefined();
      expect(cliWords(refused as SvcError).hint).toBe(
        'make the journal writable again (free space on its disk); `svc-gitops apply --resume` then finishes a run that had started',
      );
      expect(toolWords(refused as SvcError, 'acme').hint).not.toContain('svc-gitops');
    },
  );
});
