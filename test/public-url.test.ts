import { describe, expect, it } from 'vitest';
import { publicUrl } from '../src/public-url.js';

describe('publicUrl: a URL as it may be shown or recorded', () => {
  it('drops user info, query and fragment, keeps scheme, host, port and path', () => {
    expect(publicUrl('https://admin:s3cr%20et@dash.example.com:8443/wp/?token=abc#x')).toBe(
      'https://dash.example.com:8443/wp/',
    );
    expect(publicUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/');
  });

  it('a string that does not parse still loses what could hold a secret', () => {
    expect(publicUrl('//user:pass@host/path?key=1')).toBe('//host/path');
    expect(publicUrl('not a url#frag')).toBe('not a url');
  });
});
