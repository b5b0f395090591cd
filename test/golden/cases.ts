/**
 * Golden cases: desired + live → plan, rendered as text, markdown and JSON under
 * test/golden/<case>/. Together they cover every action kind, policy level, ignore scope, hold
 * and pin, waves, approval, unreadable and inactive sites, and every risk class.
 */
import type { DesiredState, LiveState } from '../../src/types.js';
import {
  allSites,
  desiredState,
  hold,
  ignored,
  ignoreRule,
  liveState,
  policy,
  REST,
  select,
  site,
  siteIds,
  source,
  update,
  wave,
} from '../plan/builders.js';

export interface GoldenCase {
  name: string;
  desired: DesiredState;
  live: LiveState;
  targetSiteIds?: number[];
}

const mixedLive = liveState({
  sites: [
    site(1),
    site(2),
    site(3, { url: 'https://www.Shop.example.test/' }),
    site(4, { status: 'disconnected' }),
    site(5, { status: 'suspended' }),
    site(6, { url: 'https://staging.example.test/' }),
  ],
  pending: [
    update(1, 'core', 'wordpress', '6.4.1', '6.4.2'),
    update(1, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7', 'Akismet Anti-spam'),
    update(1, 'plugin', 'woocommerce/woocommerce.php', '8.9.1', '9.0.0', 'WooCommerce'),
    update(1, 'plugin', 'jetpack/jetpack.php', '13.1', '13.2', 'Jetpack'),
    update(1, 'theme', 'twentytwentyfour', '1.0', '1.1', 'Twenty Twenty-Four'),
    update(1, 'translation', 'default', '6.4.1', ''),
    update(2, 'core', 'wordpress', '6.4.1', '6.5'),
    update(2, 'plugin', 'elementor/elementor.php', '3.20.1', '3.21.0', 'Elementor'),
    update(2, 'plugin', 'elementor/elementor.php', '3.20.1', '3.21.0', 'Elementor'),
    update(2, 'plugin', 'acf/acf.php', '9.4.1', '9.4.3', 'ACF'),
    update(2, 'plugin', 'wpforms/wpforms.php', '1.8.7', '2.0.0', 'WPForms'),
    update(3, 'core', 'wordpress', '6.4.1', '7.0'),
    update(3, 'plugin', 'acf/acf.php', '9.4.1', '9.5.0', 'ACF'),
    update(3, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7', 'Akismet Anti-spam'),
    update(4, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7', 'Akismet Anti-spam'),
    update(5, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7', 'Akismet Anti-spam'),
    update(6, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7', 'Akismet Anti-spam'),
  ],
  ignores: [
    ignored(1, 'plugin', 'hello.php'),
    ignored(1, 'plugin', 'classic-editor/classic-editor.php', { versions: ['1.6.3'] }),
    ignored(2, 'plugin', 'hello.php', { origin: 'global' }),
    ignored(2, 'theme', 'twentytwenty'),
    ignored(3, 'plugin', 'hello.php', { origin: 'global' }),
    ignored(6, 'theme', 'twentytwenty'),
    ignored(7, 'theme', 'twentytwenty'),
  ],
  unreadable: [
    {
      siteId: 7,
      url: 'https://offline.example.test/',
      code: 'svc_site_offline',
      message: 'Site is known to be offline.',
    },
  ],
});

const mixedDesired = desiredState({
  sites: select([{ type: 'all' }], [{ type: 'glob', pattern: 'staging.*' }]),
  ignoreScope: 'remove',
  ignores: [
    ignoreRule({
      plugins: ['hello.php', 'classic-editor/classic-editor.php'],
      source: source(8, '/ignores/0'),
    }),
    ignoreRule({ selection: siteIds(2), plugins: ['wpforms/wpforms.php'], source: source(11, '/ignores/1') }),
    ignoreRule({
      selection: select([{ type: 'domain', domain: 'shop.example.test' }]),
      core: true,
      source: source(13, '/ignores/2'),
    }),
  ],
  policies: [
    policy({ name: 'core-patch', kinds: ['core'], maxLevel: 'patch', source: source(18, '/policies/0') }),
    policy({
      name: 'plugins-minor',
      kinds: ['plugin', 'translation'],
      exclude: ['woocommerce/*'],
      maxLevel: 'minor',
      source: source(22, '/policies/1'),
    }),
    policy({
      name: 'woo-major',
      kinds: ['plugin'],
      include: ['woocommerce/*'],
      maxLevel: 'major',
      source: source(27, '/policies/2'),
    }),
    policy({
      name: 'canary-core-minor',
      selection: siteIds(2),
      kinds: ['core'],
      maxLevel: 'minor',
      source: source(31, '/policies/3'),
    }),
    policy({ name: 'themes-patch', kinds: ['theme'], maxLevel: 'patch', source: source(35, '/policies/4') }),
  ],
  holds: [
    hold({
      kind: 'plugin',
      slug: 'jetpack/*',
      reason: 'waiting for the 13.3 fix',
      source: source(40, '/holds/0'),
    }),
    hold({ kind: 'plugin', slug: 'acf/acf.php', maxVersion: '9.4', source: source(43, '/holds/1') }),
  ],
  waves: [wave('canary', siteIds(2)), wave('early', select([{ type: 'glob', pattern: '*shop*' }]))],
  approval: { maxSitesWithoutApproval: 1, coreNeedsApproval: true, majorNeedsApproval: true },
});

const scopeLive = liveState({
  sites: [site(1), site(2)],
  ignores: [
    ignored(1, 'plugin', 'hello.php'),
    ignored(1, 'plugin', 'akismet/akismet.php', { origin: 'global' }),
    ignored(2, 'plugin', 'akismet/akismet.php', { origin: 'global' }),
    ignored(2, 'plugin', '*', { origin: 'site-flag' }),
    ignored(2, 'theme', 'twentytwenty', { versions: ['2.5', '2.6'] }),
  ],
  pending: [update(2, 'plugin', 'jetpack/jetpack.php', '13.1', '13.1.1', 'Jetpack')],
});
const scopeDesired = (ignoreScope: DesiredState['ignoreScope']) =>
  desiredState({ ignoreScope, policies: [policy({ name: 'all-minor', kinds: ['plugin'] })] });

const hostileName =
  '<img src=x onerror=alert(1)> **bold** [click](https://evil.test) @octocat #1 `code` | pipe ~~s~~ $x$';

export const GOLDEN_CASES: GoldenCase[] = [
  { name: 'mixed-fleet', desired: mixedDesired, live: mixedLive },
  { name: 'scope-remove', desired: scopeDesired('remove'), live: scopeLive },
  { name: 'scope-report', desired: scopeDesired('report'), live: scopeLive },
  { name: 'scope-keep', desired: scopeDesired('keep'), live: scopeLive },
  {
    name: 'rest-cannot-unignore',
    desired: scopeDesired('remove'),
    live: { ...scopeLive, capabilities: REST },
  },
  {
    name: 'no-changes',
    desired: desiredState({
      ignores: [ignoreRule({ plugins: ['hello.php'] })],
      policies: [policy({ name: 'p' })],
    }),
    live: liveState({ sites: [site(1)], ignores: [ignored(1, 'plugin', 'hello.php')] }),
  },
  {
    name: 'targeted',
    desired: desiredState({ sites: allSites(), ignores: [ignoreRule({ themes: ['twentytwenty'] })] }),
    live: liveState({ sites: [site(1), site(2), site(3)] }),
    targetSiteIds: [2, 99],
  },
  {
    name: 'hostile-names',
    desired: desiredState({ ignoreScope: 'remove', policies: [policy({ name: 'p', kinds: ['plugin'] })] }),
    live: liveState({
      dashboardUrl: 'https://admin:s3cret@dashboard.example.test/?token=abc',
      sites: [site(1, { url: 'https://evil.test/@admin/<script>/', name: hostileName })],
      pending: [
        update(1, 'plugin', 'evil/evil.php', '1.0', '1.0.1', hostileName),
        update(
          1,
          'plugin',
          'fake/fake.php',
          '1.0',
          '1.0.1',
          'Fake\n  + ignore   plugin forged\u001b[2J\u202eevil',
        ),
      ],
      ignores: [ignored(1, 'plugin', 'x`|<b>y</b>/z.php')],
    }),
  },
];
