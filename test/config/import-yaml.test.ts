import { describe, expect, it } from 'vitest';
import { importDesiredState } from '../../src/config/index.js';
import { createPlan, normaliseAddress } from '../../src/plan/index.js';
import { safeText } from '../../src/render/safe-text.js';
import type { DesiredState, LiveIgnore, LiveState, Site } from '../../src/types.js';
import { errors, loadFrom, loadText } from './helpers.js';

/** The YAML import writes. */
const renderImportYaml = (...args: Parameters<typeof importDesiredState>) => importDesiredState(...args).yaml;

/** As the CLI passes them: the planner's address matching and the renderers' safe text. */
const READERS = { addressOf: normaliseAddress, safe: safeText };

const site = (id: number, host: string): Site => ({
  id,
  url: `https://${host}/`,
  name: host,
  status: 'connected',
});
const ignore = (
  siteId: number,
  kind: LiveIgnore['kind'],
  slug: string,
  extra: Partial<LiveIgnore> = {},
): LiveIgnore => ({
  siteId,
  kind,
  slug,
  versions: 'all',
  origin: 'site',
  ...extra,
});

function liveState(): LiveState {
  return {
    dashboardUrl: 'https://admin:secret@dash.demo.test/',
    sites: [
      site(1, 'acme-shop.demo.test'),
      site(2, 'acme-blog.demo.test'),
      site(3, 'globex.demo.test'),
      site(4, 'wayne.demo.test'),
      { id: 5, url: 'https://multi.demo.test/sub/', name: 'sub', status: 'connected' },
    ],
    pending: [],
    ignores: [
      ignore(2, 'theme', 'astra'),
      ignore(2, 'plugin', 'woocommerce/woocommerce.php'),
      ignore(1, 'plugin', 'woocommerce/woocommerce.php'),
      ignore(1, 'theme', 'astra'),
      ignore(3, 'core', 'wordpress'),
      ignore(3, 'plugin', 'akismet/akismet.php', { versions: ['5.3.7'] }),
      ignore(5, 'plugin', 'jetpack/jetpack.php'),
      ignore(4, 'plugin', 'elementor/elementor.php', { origin: 'global' }),
      ignore(4, 'plugin', '*', { origin: 'site-flag' }),
    ],
    unreadable: [{ siteId: 9, url: 'https://down.demo.test/', code: 'site_offline', message: 'offline' }],
    capabilities: {
      surface: 'abilities',
      canUnignore: true,
      canIgnore: true,
      canIgnoreCore: true,
      queueThreshold: 20,
    },
  };
}

/** The per-site ignores a desired state asks for, for sites named by domain or ID. */
function desiredIgnores(desired: DesiredState, s: Site): string[] {
  const host = new URL(s.url).hostname;
  const out = new Set<string>();
  for (const rule of desired.ignores) {
    const hit = rule.selection.include.some(
      (m) => (m.type === 'domain' && m.domain === host) || (m.type === 'id' && m.id === s.id),
    );
    if (!hit) continue;
    if (rule.core) out.add('core:wordpress');
    for (const p of rule.plugins) out.add(`plugin:${p}`);
    for (const t of rule.themes) out.add(`theme:${t}`);
  }
  return [...out].sort();
}

describe('importDesiredState: the YAML', () => {
  it('produces a valid desired state that asks for exactly the live per-site all-version ignores', async () => {
    const live = liveState();
    const result = await loadText(renderImportYaml(live, READERS));
    expect(result.diagnostics).toEqual([]);
    const desired = result.desired!;
    expect(desired.ignoreScope).toBe('report');
    for (const s of live.sites) {
      const expected = live.ignores
        .filter((i) => i.siteId === s.id && i.origin === 'site' && i.versions === 'all')
        .map((i) => `${i.kind}:${i.slug}`)
        .sort();
      expect(desiredIgnores(desired, s), s.url).toEqual(expected);
    }
  });

  it('import followed by plan shows no ignore changes (checked with the real planner)', async () => {
    const live = liveState();
    const { desired } = await loadText(renderImportYaml(live, READERS));
    const plan = createPlan(desired!, live, { now: new Date('2026-01-01T00:00:00Z'), lifetimeMinutes: 60 });
    expect(plan.actions.filter((a) => a.op !== 'update')).toEqual([]);
  });

  it('groups sites that share the same ignores and names sites by domain, or by ID when the URL has a path', () => {
    const text = renderImportYaml(liveState(), READERS);
    // One list item a line: a later change to one site or item is a one-line diff.
    expect(text).toContain(
      '    - sites:\n        - acme-shop.demo.test\n        - acme-blog.demo.test\n      plugins:\n        - woocommerce/woocommerce.php\n      themes:\n        - astra\n',
    );
    expect(text).toContain('    - sites:\n        - 5\n');
    expect(text).not.toContain('wayne.demo.test');
  });

  it('splits into a directory of files within the file limit that reads as the single file does', async () => {
    // 300 sites with distinct ignore sets: far more rules than fit one 4 KiB file.
    const sites = Array.from({ length: 300 }, (_, i) => site(i + 1, `s${i + 1}.fleet.test`));
    const ignores = sites.flatMap((s) =>
      Array.from({ length: 1 + (s.id % 7) }, (_, k) => ignore(s.id, 'plugin', `p${s.id % 13}-${k}/p.php`)),
    );
    const live: LiveState = { ...liveState(), sites, ignores, unreadable: [] };
    const result = importDesiredState(live, READERS, { maxFileBytes: 4096 });
    expect(result.files.length).toBeGreaterThan(3);
    expect(result.files[0]?.name).toBe('00-svc-gitops.yaml');
    for (const file of result.files)
      expect(Buffer.byteLength(file.yaml), file.name).toBeLessThanOrEqual(4096);
    const files = Object.fromEntries(result.files.map((f) => [`conf/${f.name}`, f.yaml]));
    const split = await loadFrom(files, 'conf');
    expect(split.diagnostics).toEqual([]);
    const single = await loadText(result.yaml);
    const shape = (d: typeof split.desired) =>
      d?.ignores.map((r) => [r.selection, r.core, r.plugins, r.themes]);
    expect(shape(split.desired)).toEqual(shape(single.desired));
    const plan = createPlan(split.desired!, live, {
      now: new Date('2026-01-01T00:00:00Z'),
      lifetimeMinutes: 60,
    });
    expect(plan.actions.filter((a) => a.op !== 'update')).toEqual([]);
  });

  it('is deterministic regardless of the order of live ignores', () => {
    const live = liveState();
    const reversed = { ...live, ignores: [...live.ignores].reverse() };
    expect(renderImportYaml(reversed, READERS)).toBe(renderImportYaml(live, READERS));
  });

  it("is deterministic regardless of the order and repeats of a version-specific ignore's versions", () => {
    const withVersions = (versions: string[]): LiveState => ({
      ...liveState(),
      ignores: [ignore(3, 'plugin', 'akismet/akismet.php', { versions })],
    });
    const text = renderImportYaml(withVersions(['5.3.7', '5.3.10']), READERS);
    expect(renderImportYaml(withVersions(['5.3.10', '5.3.7', '5.3.10']), READERS)).toBe(text);
    expect(text).toContain('#   globex.demo.test akismet/akismet.php 5.3.10,5.3.7\n');
  });

  it('counts the per-site ignores it adopts and those it leaves unmanaged, never global ones or flags', () => {
    // Adopted: site 1 and 2 (plugin + theme each), 3 (core), 5 (plugin); left: 3's akismet 5.3.7.
    const result = importDesiredState(liveState(), READERS);
    expect(result).toMatchObject({ adopted: 6, unmanaged: 1 });
    expect(result.yaml).toBe(renderImportYaml(liveState(), READERS));
  });

  it('says when its YAML is larger than a desired-state file may be (no command could read it)', async () => {
    // 17,000 distinct 250-character slugs on one site: one rule of about 4.3 MB.
    const slugs = Array.from({ length: 17_000 }, (_, i) => `${String(i).padStart(240, 'p')}/p.php`);
    const live = { ...liveState(), ignores: slugs.map((slug) => ignore(1, 'plugin', slug)) };
    const result = importDesiredState(live, READERS);
    expect(result.bytes).toBe(Buffer.byteLength(result.yaml));
    expect(result.fits).toBe(false);
    expect(errors((await loadText(result.yaml)).diagnostics).map((d) => d.rule)).toEqual(['file-too-large']);
    expect(importDesiredState(liveState(), READERS).fits).toBe(true);
  });

  it('starts with the $schema comment, notes version-specific and unreadable sites, and shows no credentials', () => {
    const text = renderImportYaml(liveState(), READERS);
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=https://cdn.jsdelivr.net/npm/svc-gitops/schemas/svc-gitops.schema.json',
    );
    expect(text).toContain(
      '# Left unmanaged (ignores of specific versions):\n#   globex.demo.test akismet/akismet.php 5.3.7\n',
    );
    expect(text).toContain('# Not imported (unreadable):\n#   9 (site_offline)');
    expect(text).toContain('https://dash.demo.test/');
    expect(text).not.toContain('secret');
    expect(
      renderImportYaml(liveState(), READERS, {
        dashboardUrl: 'https://other.demo.test/',
        schemaRef: 'x.json',
      }),
    ).toMatch(/^# yaml-language-server: \$schema=x\.json\n[\s\S]*https:\/\/other\.demo\.test\//);
  });

  it('renders an empty rule list for a fleet without per-site ignores', async () => {
    const live = { ...liveState(), ignores: [] };
    const result = await loadText(renderImportYaml(live, READERS));
    expect(result.diagnostics).toEqual([]);
    expect(result.desired!.ignores).toEqual([]);
  });

  it('adopts an odd fleet exactly: www twins, ports, non-ASCII and numeric hosts, single-file plugins', async () => {
    const odd = (id: number, url: string): Site => ({ id, url, name: url, status: 'connected' });
    const live: LiveState = {
      ...liveState(),
      sites: [
        odd(1, 'https://www.shop.demo.test/'),
        odd(2, 'https://shop.demo.test/'),
        odd(3, 'https://a.demo.test:8443/'),
        odd(4, 'https://bücher.demo.test/'),
        odd(5, 'https://12345/'),
        odd(6, 'https://www.www.twice.test/'),
        odd(7, 'https://plain.demo.test/'),
      ],
      ignores: [
        ignore(1, 'plugin', 'akismet/akismet.php'),
        ignore(3, 'plugin', 'akismet/akismet.php'),
        ignore(4, 'theme', 'astra'),
        ignore(5, 'core', 'wordpress'),
        ignore(6, 'plugin', 'hello.php'),
        ignore(7, 'plugin', 'hello.php'),
        ignore(7, 'plugin', 'my plugin/my+plugin.php'),
      ],
    };
    const text = renderImportYaml(live, READERS);
    const result = await loadText(text);
    expect(result.diagnostics).toEqual([]);
    expect(text).toContain(
      '    - sites:\n        - 1\n        - 3\n      plugins:\n        - akismet/akismet.php\n',
    );
    expect(text).toContain('    - sites:\n        - 4\n');
    expect(text).toContain('    - sites:\n        - 5\n');
    expect(text).toContain(
      '    - sites:\n        - 6\n        - plain.demo.test\n      plugins:\n        - hello.php\n',
    );
    expect(text).toContain(
      '# Left unmanaged (slugs this format cannot hold):\n#   plain.demo.test my plugin/my+plugin.php\n',
    );
    // Planned with `unmanaged: remove`, only what the format cannot hold would be unignored:
    // every other live ignore is adopted, on its own site and no other.
    const desired = { ...result.desired!, ignoreScope: 'remove' as const };
    const plan = createPlan(desired, live, { now: new Date('2026-01-01T00:00:00Z'), lifetimeMinutes: 60 });
    expect(plan.actions.map((a) => `${a.op} ${a.site_id} ${a.slug}`)).toEqual([
      'unignore 7 my plugin/my+plugin.php',
    ]);
  });

  it('quotes dashboard text in its header without control characters', () => {
    const live: LiveState = {
      ...liveState(),
      ignores: [ignore(1, 'plugin', 'x/x.php', { versions: ['1.0\u001b]0;pwned\u0007\u001b[2J'] })],
      unreadable: [{ siteId: 9, url: 'https://down.demo.test/', code: 'gone\u001b[31m', message: 'x' }],
    };
    const text = renderImportYaml(live, READERS);
    expect(text).toContain('x/x.php 1.0');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
