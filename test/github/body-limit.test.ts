import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marker } from '../../src/github/index.js';
import { capBody, GITHUB_BODY_LIMIT } from '../../src/render/index.js';

const head = `${marker('plan', 'a.yaml')}\n### plan\n\n`;
const tail = '\n\n---\nFull JSON plan: artifact `svc-gitops-plan`\n';

describe('capBody', () => {
  it('returns a body that fits unchanged', () => {
    expect(capBody({ head, main: 'small', tail })).toEqual({
      body: `${head}small${tail}`,
      truncated: false,
      omittedChars: 0,
    });
  });

  it('cuts only the middle, at a line break, and says how much was cut', () => {
    const main = Array.from({ length: 4000 }, (_, i) => `| site ${i} | plugin | 1.0 → 1.1 |`).join('\n');
    const capped = capBody({ head, main, tail }, { budget: 20_000 });
    expect(capped.truncated).toBe(true);
    expect(capped.body.length).toBeLessThanOrEqual(20_000);
    expect(capped.body.startsWith(head)).toBe(true);
    expect(capped.body.endsWith(tail)).toBe(true);
    expect(capped.body).toMatch(/\| site \d+ \| plugin \| 1\.0 → 1\.1 \|\n\n> \[!WARNING\]/);
    expect(capped.body).toContain(`${capped.omittedChars.toLocaleString('en-US')} characters were cut`);
  });

  it('closes a code fence and <details> blocks the cut left open', () => {
    const main = `<details><summary>site 1</summary>\n\n\`\`\`diff\n${'+ plugin/a.php\n'.repeat(3000)}\`\`\`\n</details>`;
    const capped = capBody({ head, main, tail }, { budget: 10_000 });
    const body = capped.body;
    expect(body.match(/^```/gm)?.length).toBe(2);
    expect(body.match(/<details>/g)?.length).toBe(body.match(/<\/details>/g)?.length);
  });

  it('never exceeds GitHub’s limit, never splits a character, always keeps head and tail', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.integer({ min: 1000, max: 80_000 }),
        (chunk, budget) => {
          const main = chunk.repeat(Math.ceil(70_000 / Math.max(chunk.length, 1)));
          const { body } = capBody({ head, main, tail }, { budget });
          expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
          expect(body.length).toBeLessThanOrEqual(budget);
          expect(body.startsWith(head) && body.endsWith(tail)).toBe(true);
          expect(body).toBe(Buffer.from(body, 'utf8').toString('utf8'));
        },
      ),
      { numRuns: 60 },
    );
  });
});
