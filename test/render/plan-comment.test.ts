import { describe, expect, it } from 'vitest';
import { planFailedComment, validationComment } from '../../src/render/index.js';
import { escapeMarkdown, linkTarget } from '../../src/render/markdown-escape.js';

const frame = {
  marker: '<!-- svc-gitops:plan x -->',
  configKey: 'svc-gitops.yaml',
  now: new Date('2026-01-02T03:04:05Z'),
};

describe('comments built by render', () => {
  it('escapes validation messages with the one markdown escaper and keeps them whole', () => {
    const message = `unknown key \`x_y\` @team <b> ${'m'.repeat(400)}`;
    const { body } = validationComment(
      {
        ...frame,
        diagnostics: [
          { severity: 'error', rule: 'schema', message, hint: 'see #12', file: '/r/a.yaml', line: 3 },
        ],
      },
      (file) => file.replace('/r/', ''),
    );
    expect(body).toContain(
      `- **error** \`a.yaml:3\` ${escapeMarkdown(message, Infinity)} (hint: ${escapeMarkdown('see #12')})`,
    );
    expect(body).not.toContain('@team');
    expect(body).not.toContain('<b>');
    expect(body).toContain('m'.repeat(400));
  });

  it('escapes a planning failure the same way', () => {
    const { body } = planFailedComment({
      ...frame,
      failure: { code: 'AUTH', message: 'denied for *admin*' },
    });
    expect(body).toContain('(`AUTH`)');
    expect(body).toContain(`- ${escapeMarkdown('denied for *admin*')}`);
    expect(body).not.toContain('*admin*');
  });

  it('drops credentials and non-http schemes from link targets', () => {
    expect(linkTarget('https://user:tok@example.com/a(b)')).toBe('https://example.com/a%28b%29');
    expect(linkTarget('javascript:alert(1)')).toBeUndefined();
  });
});
