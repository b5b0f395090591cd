import type { RouteContext } from './fake-github.js';
import type { Reply } from './fake-github-routes.js';

/**
 * The git data and pull request parts of the fake GitHub that the quarantine pull request uses:
 * branch refs (get, create, force-update), file contents on a branch (get, create or update with
 * the current blob sha, as GitHub requires), and pull requests (list by head, create, update).
 * Each repository starts with branch `main` holding no files.
 */
export interface FakePull {
  number: number;
  repo: string;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
}

export interface FakeGit {
  /** `repo branch` → commit sha. */
  refs: Map<string, string>;
  /** `repo branch path` → the file's text. */
  files: Map<string, string>;
  pulls: FakePull[];
}

export function createFakeGit(): FakeGit {
  return { refs: new Map(), files: new Map(), pulls: [] };
}

type Handler = (ctx: RouteContext, git: FakeGit, params: string[]) => Reply;

export const GIT_ROUTES: Array<[method: string, pattern: RegExp, handler: Handler]> = [
  ['GET', /^\/repos\/([^/]+\/[^/]+)\/git\/ref\/heads\/(.+)$/, getRef],
  ['POST', /^\/repos\/([^/]+\/[^/]+)\/git\/refs$/, createRef],
  ['PATCH', /^\/repos\/([^/]+\/[^/]+)\/git\/refs\/heads\/(.+)$/, updateRef],
  ['GET', /^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/, getFile],
  ['PUT', /^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/, putFile],
  ['GET', /^\/repos\/([^/]+\/[^/]+)\/pulls$/, listPulls],
  ['POST', /^\/repos\/([^/]+\/[^/]+)\/pulls$/, createPull],
  ['PATCH', /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/, updatePull],
];

const NOT_FOUND: Reply = { status: 404, body: { message: 'Not Found' } };
const fields = (ctx: RouteContext) => (ctx.body ?? {}) as Record<string, unknown>;
const sha = (text: string) => `sha-${Buffer.from(text).toString('hex').slice(0, 16)}-${text.length}`;

function refOf(git: FakeGit, repo: string, branch: string): string | undefined {
  return git.refs.get(`${repo} ${branch}`) ?? (branch === 'main' ? 'sha-main' : undefined);
}

function getRef(_ctx: RouteContext, git: FakeGit, [repo, branch]: string[]): Reply {
  const at = refOf(git, repo!, branch!);
  return at ? { status: 200, body: { ref: `refs/heads/${branch}`, object: { sha: at } } } : NOT_FOUND;
}

function createRef(ctx: RouteContext, git: FakeGit, [repo]: string[]): Reply {
  const { ref, sha: at } = fields(ctx);
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/') || typeof at !== 'string')
    return { status: 422, body: { message: 'Invalid request' } };
  const branch = ref.slice('refs/heads/'.length);
  if (git.refs.has(`${repo} ${branch}`))
    return { status: 422, body: { message: 'Reference already exists' } };
  git.refs.set(`${repo} ${branch}`, at);
  dropFiles(git, repo!, branch);
  return { status: 201, body: { ref, object: { sha: at } } };
}

function updateRef(ctx: RouteContext, git: FakeGit, [repo, branch]: string[]): Reply {
  const { sha: at, force } = fields(ctx);
  if (!git.refs.has(`${repo} ${branch}`)) return NOT_FOUND;
  if (force !== true) return { status: 422, body: { message: 'Update is not a fast forward' } };
  git.refs.set(`${repo} ${branch}`, at as string);
  // Reset to the base: the branch's own commits (its files) are gone.
  dropFiles(git, repo!, branch!);
  return { status: 200, body: { object: { sha: at } } };
}

function dropFiles(git: FakeGit, repo: string, branch: string): void {
  for (const key of [...git.files.keys()]) if (key.startsWith(`${repo} ${branch} `)) git.files.delete(key);
}

function getFile(ctx: RouteContext, git: FakeGit, [repo, path]: string[]): Reply {
  const branch = ctx.query.get('ref') ?? 'main';
  const text = git.files.get(`${repo} ${branch} ${path}`);
  if (text === undefined) return NOT_FOUND;
  return { status: 200, body: { path, sha: sha(text), content: Buffer.from(text).toString('base64') } };
}

function putFile(ctx: RouteContext, git: FakeGit, [repo, path]: string[]): Reply {
  const { content, branch, sha: given, message } = fields(ctx);
  if (typeof content !== 'string' || typeof branch !== 'string' || typeof message !== 'string')
    return { status: 422, body: { message: 'Invalid request' } };
  if (!refOf(git, repo!, branch)) return NOT_FOUND;
  const key = `${repo} ${branch} ${path}`;
  const current = git.files.get(key);
  if (current !== undefined && given !== sha(current))
    return { status: 409, body: { message: `${path} does not match ${String(given)}` } };
  const text = Buffer.from(content, 'base64').toString('utf8');
  git.files.set(key, text);
  return { status: current === undefined ? 201 : 200, body: { content: { path, sha: sha(text) } } };
}

function pullJson(ctx: RouteContext, pull: FakePull) {
  return {
    number: pull.number,
    title: pull.title,
    body: pull.body,
    state: pull.state,
    head: { ref: pull.head },
    base: { ref: pull.base },
    html_url: `${ctx.base}/${pull.repo}/pull/${pull.number}`,
  };
}

function listPulls(ctx: RouteContext, git: FakeGit, [repo]: string[]): Reply {
  const head = ctx.query.get('head');
  const state = ctx.query.get('state') ?? 'open';
  const owner = repo!.split('/')[0];
  const list = git.pulls.filter(
    (p) => p.repo === repo && p.state === state && (!head || head === `${owner}:${p.head}`),
  );
  return { status: 200, body: list.map((p) => pullJson(ctx, p)) };
}

function createPull(ctx: RouteContext, git: FakeGit, [repo]: string[]): Reply {
  const { title, head, base, body } = fields(ctx);
  if (typeof title !== 'string' || typeof head !== 'string' || typeof base !== 'string')
    return { status: 422, body: { message: 'Validation Failed' } };
  if (!refOf(git, repo!, head)) return { status: 422, body: { message: 'Validation Failed: head' } };
  const pull: FakePull = {
    number: 100 + git.pulls.length,
    repo: repo!,
    head,
    base,
    title,
    body: typeof body === 'string' ? body : '',
    state: 'open',
  };
  git.pulls.push(pull);
  return { status: 201, body: pullJson(ctx, pull) };
}

function updatePull(ctx: RouteContext, git: FakeGit, [repo, number]: string[]): Reply {
  const pull = git.pulls.find((p) => p.repo === repo && p.number === Number(number));
  if (!pull) return NOT_FOUND;
  const { title, body } = fields(ctx);
  if (typeof title === 'string') pull.title = title;
  if (typeof body === 'string') pull.body = body;
  return { status: 200, body: pullJson(ctx, pull) };
}
