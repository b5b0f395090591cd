import { describe, expect, it } from 'vitest';
import { parseRestCoreRun, parseRestKindRun } from '../../src/dashboard/wire/rest-run.js';

const WHERE = 'REST POST /updates/1/update/plugins';

describe('REST run responses (dashboard-facts §6.3)', () => {
  it('reads per-slug results, decoding URL-encoded failure keys', () => {
    const run = parseRestKindRun(
      {
        success: 1,
        data: {
          'akismet/akismet.php': { success: 1, name: 'Akismet', old_version: '5.3.6', version: '5.3.7' },
          'wordfence%2Fwordfence.php': { success: 0, error: 'No response from the child site server.' },
        },
      },
      WHERE,
    );
    expect(run).toEqual({
      updated: [{ slug: 'akismet/akismet.php', from: '5.3.6', to: '5.3.7' }],
      failed: [{ slug: 'wordfence/wordfence.php', message: 'No response from the child site server.' }],
    });
  });

  it('counts an item as updated only when it says it succeeded', () => {
    const run = parseRestKindRun(
      { success: 1, data: { 'a/a.php': {}, 'b/b.php': { error: 'Download failed.' } } },
      WHERE,
    );
    expect(run).toEqual({
      updated: [],
      failed: [
        { slug: 'a/a.php', message: 'no success flag for this item' },
        { slug: 'b/b.php', message: 'Download failed.' },
      ],
    });
  });

  it('takes success:0 at HTTP 200 as "nothing ran", with the reason; an empty map as []', () => {
    expect(parseRestKindRun({ success: 0, message: 'No Plugins to update.' }, WHERE).refused).toBe(
      'No Plugins to update.',
    );
    expect(parseRestKindRun({ success: 1, data: [] }, WHERE)).toEqual({ updated: [], failed: [] });
    expect(parseRestCoreRun({ success: 0 }, WHERE).refused).toBe(
      'the dashboard reported a failure without a reason',
    );
    expect(
      parseRestCoreRun({ success: '0', error: 'An undefined error occured. Please try again.' }, WHERE)
        .refused,
    ).toBe('An undefined error occured. Please try again.');
  });

  it('reads a core success with its versions, and rejects a body that is not an object', () => {
    expect(
      parseRestCoreRun(
        { success: 1, message: 'WordPress was updated.', data: { old_version: '6.8.1', version: '6.8.3' } },
        WHERE,
      ),
    ).toEqual({ updated: [{ slug: 'wordpress', from: '6.8.1', to: '6.8.3' }], failed: [] });
    expect(() => parseRestKindRun('done', WHERE)).toThrow(/should be an object/);
  });
});
