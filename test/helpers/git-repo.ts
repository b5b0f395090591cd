import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A real git repository in `dir` for tests: commits files, switches branches. */
export interface GitRepo {
  dir: string;
  git(...args: string[]): string;
  /** Writes (or, for `null`, removes) files and commits them on the current branch. */
  commit(files: Record<string, string | null>, message?: string): string;
}

export function gitRepo(dir: string, branch = 'main'): GitRepo {
  const git = (...args: string[]): string =>
    execFileSync(
      'git',
      ['-C', dir, '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'test',
          GIT_AUTHOR_EMAIL: 'test@example.test',
          GIT_COMMITTER_NAME: 'test',
          GIT_COMMITTER_EMAIL: 'test@example.test',
          GIT_CONFIG_NOSYSTEM: '1',
        },
      },
    ).trim();
  git('init', '-q', '-b', branch);
  return {
    dir,
    git,
    commit(files, message = 'change') {
      for (const [path, text] of Object.entries(files)) {
        const file = join(dir, path);
        if (text === null) rmSync(file, { force: true });
        else {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
  };
}
