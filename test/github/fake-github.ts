import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeGit, type FakeGit } from './fake-github-git.js';
import { type Reply, routeRequest, send } from './fake-github-routes.js';

/**
 * A local imitation of the parts of the GitHub REST API that svc-gitops uses, on 127.0.0.1 and
 * port 0: issue comments (list with Link pagination, create, update), issues (list with state and
 * label filters, create, update, close), issue search and the token's user (`GET /user`, for an
 * installation or a personal access token: see `personalToken`). It checks the bearer token,
 * rejects bodies over 65,536 characters with GitHub's 422, counts a rate limit, can inject
 * failures, and records every request. State lives in the returned object (one per test), never
 * in the module.
 */
export interface FakeComment {
  id: number;
  repo: string;
  issue: number;
  body: string;
  user: FakeAccount;
}

export interface FakeIssue {
  number: number;
  repo: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  isPullRequest: boolean;
  /** Who opened it: a person unless the API created it (then the token's account). */
  user: FakeAccount;
}

/** An account as GitHub shows it in `user` fields: a login, a numeric id, `User` or `Bot`. */
export interface FakeAccount {
  login: string;
  id: number;
  type: string;
}

export interface RecordedRequest {
  method: string;
  /** Path after the API prefix, with the query. */
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface Fault {
  method?: string;
  /** Tested against the path with its query. */
  path?: RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail (default 1). */
  times?: number;
}

export interface FakeGitHubOptions {
  token?: string;
  /** API path prefix, e.g. `/api/v3` to imitate GitHub Enterprise Server. */
  prefix?: string;
  /** Labels on created issues are silently dropped, as GitHub does for tokens that may not label. */
  dropLabels?: boolean;
  /**
   * The token is this person's personal access token: `GET /user` answers their account, what
   * the API creates is theirs, and they may edit any comment (as a person with write access
   * can). Without it the token is an installation token (the workflow's `GITHUB_TOKEN`): `GET
   * /user` answers 403, what the API creates is `github-actions[bot]`'s, and it may edit only
   * bot comments.
   */
  personalToken?: { login: string };
}

export interface FakeGitHub {
  /** API base URL for GITHUB_API_URL. */
  url: string;
  token: string;
  options: FakeGitHubOptions;
  requests: RecordedRequest[];
  comments: FakeComment[];
  issues: FakeIssue[];
  /** Branches, files on them and pull requests (fake-github-git.ts). */
  git: FakeGit;
  /** The same account (and id) for a login on every call; logins ending in `[bot]` are bots. */
  account(login: string): FakeAccount;
  /** The account the token acts as (see `personalToken`). */
  tokenAccount(): FakeAccount;
  addComment(repo: string, issue: number, body: string, login?: string): FakeComment;
  addIssue(
    repo: string,
    fields: Partial<Omit<FakeIssue, 'number' | 'repo' | 'user'>> & {
      user?: { login: string; type?: string };
    },
  ): FakeIssue;
  fail(fault: Fault): void;
  /** The next matching requests get a primary (403, remaining 0) or secondary (429, Retry-After) rate limit. */
  rateLimit(kind: 'primary' | 'secondary', match?: Omit<Fault, 'status'>): void;
  close(): Promise<void>;
}

export const FAKE_BODY_LIMIT = 65_536;

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const token =
    options.token ??
    (options.personalToken ? 'ghp_fakePersonalToken0123456789' : 'ghs_fakeTokenValue0123456789');
  const prefix = options.prefix ?? '';
  const state = {
    nextId: 1000,
    faults: [] as Fault[],
    // github-actions[bot]'s real account id; people get ids of their own.
    accounts: new Map<string, number>([['github-actions[bot]', 41898282]]),
  };
  let base = '';

  const fake: FakeGitHub = {
    url: '',
    token,
    options,
    requests: [],
    comments: [],
    issues: [],
    git: createFakeGit(),
    account(login) {
      const id = state.accounts.get(login) ?? 5_000_000 + state.accounts.size;
      state.accounts.set(login, id);
      return { login, id, type: login.endsWith('[bot]') ? 'Bot' : 'User' };
    },
    tokenAccount: () => fake.account(options.personalToken?.login ?? 'github-actions[bot]'),
    addComment(repo, issue, body, login = 'someone') {
      const comment = { id: state.nextId++, repo, issue, body, user: fake.account(login) };
      fake.comments.push(comment);
      return comment;
    },
    addIssue(repo, { user, ...fields }) {
      const number = fake.issues.filter((i) => i.repo === repo).length + 1;
      const issue: FakeIssue = {
        ...{
          title: `issue ${number}`,
          body: '',
          state: 'open',
          state_reason: null,
          labels: [],
          isPullRequest: false,
        },
        ...fields,
        user: { ...fake.account(user?.login ?? 'someone'), ...(user?.type ? { type: user.type } : {}) },
        number,
        repo,
      };
      fake.issues.push(issue);
      return issue;
    },
    fail: (fault) => state.faults.push(fault),
    rateLimit(kind, match = {}) {
      const reset = String(Math.floor(Date.UTC(2030, 0, 1, 12, 0, 0) / 1000));
      fake.fail(
        kind === 'primary'
          ? {
              ...match,
              status: 403,
              body: { message: 'API rate limit exceeded for installation ID 42.' },
              headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
            }
          : {
              ...match,
              status: 429,
              body: { message: 'You have exceeded a secondary rate limit.' },
              headers: { 'retry-after': '60' },
            },
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    readBody(req)
      .then((raw) => handle(fake, state.faults, base, prefix, req, raw))
      .catch((error: unknown): Reply => ({ status: 500, body: { message: String(error) } }))
      .then((reply) => send(res, reply.status, reply.body, reply.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;
  fake.url = base;
  return fake;
}

function handle(
  fake: FakeGitHub,
  faults: Fault[],
  base: string,
  prefix: string,
  req: IncomingMessage,
  raw: string,
): Reply {
  const url = new URL(req.url ?? '/', 'http://x');
  const method = req.method ?? 'GET';
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  let body: unknown;
  try {
    body = raw === '' ? undefined : JSON.parse(raw);
  } catch {
    return { status: 400, body: { message: 'Problems parsing JSON' } };
  }
  fake.requests.push({ method, path: path + url.search, authorization: req.headers.authorization, body });

  if (req.headers.authorization !== `Bearer ${fake.token}`)
    return { status: 401, body: { message: 'Bad credentials' } };
  const fault = faults.find(
    (f) => (!f.method || f.method === method) && (!f.path || f.path.test(path + url.search)),
  );
  if (fault) {
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
    const reply: Reply = { status: fault.status, body: fault.body ?? { message: 'injected failure' } };
    return fault.headers ? { ...reply, headers: fault.headers } : reply;
  }
  return routeRequest({ fake, base, method, path, query: url.searchParams, body });
}

export interface RouteContext {
  fake: FakeGitHub;
  base: string;
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
