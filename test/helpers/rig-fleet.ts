/**
 * A sandbox fleet mirroring scripts/real-dashboard/ with three children after `restore`: child i
 * at `http://127.0.0.1:<port+i>/` named `child<i>`, akismet and twentytwentyone with a patch
 * pending everywhere, hello.php (major) on odd children, twentytwentyfive (major) where i is not a
 * multiple of 3. The differential test and the sandbox's shape tests read the same fleet.
 */
import { type Fleet, parseFleet } from '../../src/sandbox/index.js';

export function rigFleetText(dashboardPort = 8180, children = 3): string {
  const sites = Array.from({ length: children }, (_, index) => {
    const i = index + 1;
    const plugins = [
      '      akismet/akismet.php: 3.1.5 -> 3.1.6',
      i % 2 === 1 ? '      hello.php: 1.6 -> 2.0.0' : '      hello.php: 1.6',
    ];
    const themes = [
      '      twentytwentyone: 1.0 -> 1.0.1',
      i % 3 !== 0 ? '      twentytwentyfive: 1.0 -> 2.0.0' : '      twentytwentyfive: 1.0',
    ];
    return [
      `  - id: ${i}`,
      `    url: http://127.0.0.1:${dashboardPort + i}/`,
      `    name: child${i}`,
      '    core: 6.9.1',
      '    plugins:',
      ...plugins,
      '    themes:',
      ...themes,
    ].join('\n');
  });
  return `sites:\n${sites.join('\n')}\n`;
}

export function rigFleet(dashboardPort = 8180, children = 3): Fleet {
  return parseFleet(rigFleetText(dashboardPort, children), 'rig-fleet.yaml');
}
