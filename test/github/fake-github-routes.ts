import type { ServerResponse } from 'node:http';
import type { FakeComment, FakeIssue, RouteContext } from './fake-github.js';
import { GIT_ROUTES } from './fake-github-git.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Handler = (ctx: RouteContext, params: string[]) => Reply;

const ROUTES: Array<[method: string, pattern: RegExp, handler: Handler]> = [
  ['GET', /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/, listComments],
  ['POST', /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/, createComment],
  ['PATCH', /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/, updateComment],
  [
    'GET',
    /^\/repos\/([^/]+\/[^/]+)\/issues$/,
    (ctx, [repo]) => page(ctx, listIssues(ctx.fake.issues, repo!, ctx.query).map(issueJson)),
  ],
  ['POST', /^\/repos\/([^/]+\/[^/]+)\/issues$/, createIssue],
  ['PATCH', /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)$/, updateIssue],
  ['GET', /^\/search\/issues$/, searchIssues],
  ['GET', /^\/user$/, tokenUser],
];

/** The REST routes of the fake GitHub, with GitHub's paging rules (per_page default 30, max 100). */
export function routeRequest(ctx: RouteContext): Reply {
  for (const [method, pattern, handler] of ROUTES) {
    const match = pattern.exec(ctx.path);
    if (method === ctx.method && match) return handler(ctx, match.slice(1).map(decodeURIComponent));
  }
  for (const [method, pattern, handler] of GIT_ROUTES) {
    const match = pattern.exec(ctx.path);
    if (method === ctx.method && match)
      return handler(ctx, ctx.fake.git, match.slice(1).map(decodeURIComponent));
  }
  return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
}

function fields(ctx: RouteContext): Record<string, unknown> {
  return (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as Record<string, unknown>;
}

function listComments(ctx: RouteContext, [repo, issue]: string[]): Reply {
  const list = ctx.fake.comments
    .filter((c) => c.repo === repo && c.issue === Number(issue))
    .sort((a, b) => a.id - b.id);
  return page(ctx, list.map(commentJson));
}

function createComment(ctx: RouteContext, [repo, issue]: string[]): Reply {
  const { body } = fields(ctx);
  const invalid = bodyProblem(body);
  if (invalid) return invalid;
  const comment = ctx.fake.addComment(repo!, Number(issue), body as string, ctx.fake.tokenAccount().login);
  return { status: 201, body: commentJson(comment) };
}

function updateComment(ctx: RouteContext, [repo, id]: string[]): Reply {
  const comment = ctx.fake.comments.find((c) => c.repo === repo && c.id === Number(id));
  if (!comment) return { status: 404, body: { message: 'Not Found' } };
  if (!ctx.fake.options.personalToken && comment.user.type !== 'Bot')
    return { status: 403, body: { message: 'Resource not accessible by integration' } };
  const { body } = fields(ctx);
  const invalid = bodyProblem(body);
  if (invalid) return invalid;
  comment.body = body as string;
  return { status: 200, body: commentJson(comment) };
}

function createIssue(ctx: RouteContext, [repo]: string[]): Reply {
  const { title, body, labels } = fields(ctx);
  if (typeof title !== 'string' || title === '') return validation('title missing');
  const invalid = bodyProblem(body);
  if (invalid) return invalid;
  const issue = ctx.fake.addIssue(repo!, {
    title,
    body: body as string,
    labels: Array.isArray(labels) && !ctx.fake.options.dropLabels ? (labels as string[]) : [],
    user: ctx.fake.tokenAccount(),
  });
  return { status: 201, body: issueJson(issue) };
}

function updateIssue(ctx: RouteContext, [repo, number]: string[]): Reply {
  const issue = ctx.fake.issues.find((i) => i.repo === repo && i.number === Number(number));
  if (!issue) return { status: 404, body: { message: 'Not Found' } };
  const { title, body, state, state_reason } = fields(ctx);
  const invalid = body === undefined ? undefined : bodyProblem(body);
  if (invalid) return invalid;
  if (typeof title === 'string') issue.title = title;
  if (typeof body === 'string') issue.body = body;
  if (state === 'open' || state === 'closed') issue.state = state;
  if (typeof state_reason === 'string') issue.state_reason = state_reason;
  return { status: 200, body: issueJson(issue) };
}

/**
 * The authenticated user: a personal access token's account; an installation token has none, and
 * GitHub answers it as it does here.
 */
function tokenUser(ctx: RouteContext): Reply {
  if (!ctx.fake.options.personalToken) {
    return {
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
        status: '403',
      },
    };
  }
  const { login, id, type } = ctx.fake.tokenAccount();
  return {
    status: 200,
    body: { login, id, node_id: `U_${id}`, type, site_admin: false, html_url: `https://github.com/${login}` },
  };
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    ...headers,
  });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function page(ctx: RouteContext, items: unknown[]): Reply {
  const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30) || 30, 100);
  const current = Math.max(Number(ctx.query.get('page') ?? 1) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (n: number) => {
    const q = new URLSearchParams(ctx.query);
    q.set('page', String(n));
    return `${ctx.base}${ctx.path}?${q.toString()}`;
  };
  const rels: string[] = [];
  if (current < last) rels.push(`<${link(current + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  if (current > 1) rels.push(`<${link(1)}>; rel="first"`, `<${link(current - 1)}>; rel="prev"`);
  const body = items.slice((current - 1) * perPage, current * perPage);
  return rels.length ? { status: 200, body, headers: { link: rels.join(', ') } } : { status: 200, body };
}

function listIssues(issues: FakeIssue[], repo: string, query: URLSearchParams): FakeIssue[] {
  const state = query.get('state') ?? 'open';
  const labels = (query.get('labels') ?? '').split(',').filter(Boolean);
  return issues
    .filter((i) => i.repo === repo && (state === 'all' || i.state === state))
    .filter((i) => labels.every((l) => i.labels.includes(l)))
    .sort((a, b) => b.number - a.number);
}

function searchIssues(ctx: RouteContext): Reply {
  const items = matchingIssues(ctx.fake.issues, ctx.query.get('q') ?? '').map(issueJson);
  return { status: 200, body: { total_count: items.length, incomplete_results: false, items } };
}

function matchingIssues(issues: FakeIssue[], q: string): FakeIssue[] {
  const phrases = [...q.matchAll(/"([^"]*)"/g)].map((x) => x[1] ?? '');
  const terms = q
    .replace(/"[^"]*"/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  return issues.filter(
    (i) =>
      terms.every((t) => {
        if (t.startsWith('repo:')) return i.repo === t.slice(5);
        if (t === 'is:open' || t === 'is:closed') return i.state === t.slice(3);
        if (t === 'is:issue') return !i.isPullRequest;
        if (t.startsWith('label:')) return i.labels.includes(t.slice(6));
        return `${i.title} ${i.body}`.includes(t);
      }) && phrases.every((p) => `${i.title} ${i.body}`.includes(p)),
  );
}

function bodyProblem(body: unknown): Reply | undefined {
  if (typeof body !== 'string') return validation('body is not a string');
  if (body.length > 65_536) return validation('body is too long (maximum is 65536 characters)');
  return undefined;
}

function validation(message: string): Reply {
  const errors = [{ resource: 'Issue', code: 'custom', field: 'body', message }];
  return { status: 422, body: { message: 'Validation Failed', errors } };
}

function commentJson(c: FakeComment) {
  return {
    id: c.id,
    body: c.body,
    user: c.user,
    html_url: `https://github.com/${c.repo}/pull/${c.issue}#issuecomment-${c.id}`,
  };
}

function issueJson(i: FakeIssue) {
  return {
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.state_reason,
    labels: i.labels.map((name) => ({ name })),
    user: i.user,
    html_url: `https://github.com/${i.repo}/${i.isPullRequest ? 'pull' : 'issues'}/${i.number}`,
    ...(i.isPullRequest ? { pull_request: { url: 'x' } } : {}),
  };
}
