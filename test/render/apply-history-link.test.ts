import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { historyArtifactLine } from '../../src/render/index.js';

describe('historyArtifactLine (the apply comment’s history link)', () => {
  it('links the run page and names the artifact as code, counting the records', () => {
    const line = historyArtifactLine(
      { name: 'svc-gitops-history-eu', url: 'https://github.com/acme/sites/actions/runs/7' },
      1,
    );
    expect(line).toBe(
      'Per-site history of this apply (1 record, JSON Lines): artifact `svc-gitops-history-eu` of [this workflow run](https://github.com/acme/sites/actions/runs/7); `svc-gitops history --file FILE` prints it.',
    );
    expect(historyArtifactLine({ name: 'h' }, 12_345)).toContain('(12,345 records, JSON Lines)');
  });

  it('a name or address that is not safe markdown cannot inject a link or break the code span', () => {
    const html = marked.parse(
      historyArtifactLine({ name: 'x` [evil](https://evil.test) `', url: 'javascript:alert(1)' }, 2),
      { gfm: true, async: false },
    );
    expect(html).not.toContain('<a ');
    expect(html).toContain('this workflow run;');
  });
});
