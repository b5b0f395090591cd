import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../../scripts/soak/fault-proxy.js';
import { strongFragment } from '../../src/secrets/index.js';
import { cli } from '../helpers/cli.js';
import { connect } from '../mcp/helpers.js';
import { startSecretsWorld } from './secrets-world.js';

/**
 * Issue 29, item 2, as a property: for random credentials holding characters that need escaping,
 * a dashboard that quotes them back in every spelling (plain, HTML references named and numeric,
 * every byte percent-encoded in either case, JSON escapes, base64 of the Basic login) leaks no
 * spelling, and no strong 10-character piece, into any channel: stdout, stderr, the saved plan,
 * the journal, the apply report, the step summary, the PR comment, the tool server's answers and
 * its log.
 */
const USER = 'prop-admin';
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const ESCAPED = `&<>"'%+/\\#;é€`;

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
const percent = (text: string) =>
  [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');

/** Each spelling a dashboard may quote a credential in. */
const ENCODINGS: ReadonlyArray<[string, (secret: string) => string]> = [
  ['plain', (s) => s],
  ['HTML named references', html],
  ['HTML decimal references', (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['HTML hex references', (s) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')],
  ['percent-encoded, upper case', percent],
  ['percent-encoded, lower case', (s) => percent(s).toLowerCase()],
  [
    'JSON \\u escapes',
    (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  ],
  ['JSON escapes', (s) => JSON.stringify(s).slice(1, -1).replaceAll('/', '\\/')],
  ['base64 of user:secret', (s) => Buffer.from(`${USER}:${s}`).toString('base64')],
];

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));

/** A password with letters, digits and characters that need escaping; spaces inside only. */
const password = chars(`${ALNUM}${ALNUM}${ESCAPED} `, 14, 28)
  .map((p) => `${p}A7`.replace(/\s+/g, ' ').trim())
  .filter((p) => /\d/.test(p) && /[a-z]/i.test(p));
/** Each half of a REST key: visible ASCII a header may carry, never `==`. */
const half = chars(`${ALNUM}&<>'%+/_.!*`, 12, 20).map((h) => `${h}k9`);

describe('no spelling of a credential the dashboard echoes reaches any channel (property)', () => {
  it('random credentials × every spelling × every channel', async () => {
    await fc.assert(
      fc.asyncProperty(password, half, half, async (applicationPassword, secret, key) => {
        const token = `cs_${secret}==ck_${key}`;
        const outputs = await runEveryChannel(applicationPassword, token);
        for (const credential of [applicationPassword, `cs_${secret}`, `ck_${key}`])
          for (const [channel, text] of outputs)
            expect(leaksOf(credential, text), `${channel} leaks ${credential}`).toEqual([]);
      }),
      { numRuns: Number(process.env.SECRETS_PROPERTY_RUNS ?? 2), endOnFailure: true },
    );
  }, 120_000);
});

/** Every channel's text after the echoing dashboard was planned, commented, applied and asked. */
async function runEveryChannel(applicationPassword: string, token: string): Promise<Array<[string, string]>> {
  const world = await startSecretsWorld({
    username: USER,
    applicationPassword,
    token,
    githubToken: 'ghs_PropertyGitHubToken0000',
    prefix: 'svc-gitops-property-',
  });
  let proxy: FaultProxy | undefined;
  try {
    const echo = [applicationPassword, token, ...token.split('==')]
      .flatMap((credential) => ENCODINGS.map(([, encode]) => encode(credential)))
      .join(' / ');
    proxy = await startFaultProxy(world.sandbox.url, {
      // Every site and update name starts with the echo, as a JSON string spells it.
      rewrite: (path, body) =>
        /list-(sites|updates)-v1/.test(path)
          ? Buffer.from(
              body.toString('utf8').replaceAll('"name":"', `"name":"(${JSON.stringify(echo).slice(1, -1)}) `),
            )
          : body,
    });
    const env = { ...world.env, SVC_URL: proxy.url };
    const outputs: Array<[string, string]> = [];
    for (const argv of [
      ['plan', '--out', 'plan.json'],
      ['comment'],
      ['apply', 'plan.json', '--format', 'json', '--out', 'report.json'],
    ]) {
      const run = await cli(argv, { env, cwd: world.cwd });
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBeLessThanOrEqual(2);
      outputs.push([`${argv[0]} stdout`, run.stdout], [`${argv[0]} stderr`, run.stderr]);
    }
    const files = [...filesUnder(world.cwd), ...filesUnder(world.env.HOME ?? world.cwd)];
    expect(files.some((file) => file.includes('journal-'))).toBe(true);
    expect(readFileSync(join(world.cwd, 'plan.json'), 'utf8')).toContain('[redacted]');
    for (const file of files) outputs.push([file, readFileSync(file, 'utf8')]);
    outputs.push(['bodies sent to GitHub', world.github.requests.map((r) => r.body ?? '').join('\n')]);
    const agent = await connect({ env, cwd: world.cwd });
    try {
      for (const tool of ['svc_plan', 'list_sites_v1']) {
        const answer = await agent.call(tool, {});
        expect(answer.text).toContain('redacted'); // markdown spells it &#91;redacted&#93;
        outputs.push([`tool server ${tool}`, `${answer.text}\n${JSON.stringify(answer.result)}`]);
      }
    } finally {
      await agent.close();
    }
    outputs.push(['tool server log', agent.log.join('\n')]);
    return outputs;
  } finally {
    await proxy?.close();
    await world.close();
  }
}

/**
 * What of `credential` a text holds: a spelling of it whole, or a strong 10-character piece of
 * it, as written or once every escape is undone (the tool's own escaping, markdown's references
 * or JSON's, must not hide a leak from this check).
 */
function leaksOf(credential: string, text: string): string[] {
  const views = [text, decodedView(text)];
  const found: string[] = [];
  for (const [what, encode] of ENCODINGS) {
    const spelled = encode(credential);
    if (views.some((view) => view.includes(spelled))) found.push(what);
  }
  for (let i = 0; i + 10 <= credential.length; i++) {
    const piece = credential.slice(i, i + 10);
    if (strongFragment(piece) && views.some((view) => view.includes(piece))) found.push(`piece ${piece}`);
  }
  return found;
}

/** `text` with HTML references, percent-encoding and JSON escapes undone, three times over. */
function decodedView(text: string): string {
  let view = text;
  for (let round = 0; round < 3; round++) {
    view = view
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\(["\\/])/g, '$1')
      .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
      .replace(/&#x([0-9a-fA-F]+);/g, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
      .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => NAMED[name] as string)
      .replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      });
  }
  return view;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
