import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, SESSION_TOKEN_VARIABLE } from '../../web/src/pages/playground/curl-command.js';
import { EMPTY_FIELDS, searchBody } from '../../web/src/pages/playground/search-fields.js';

/**
 * The playground's "copy as curl" (web/src/pages/playground/curl-command.ts): the command for the
 * search fields as typed. Its arguments are read back by a real shell, as a person pasting it would.
 */
const BASE_URL = 'https://pss.example.com';
const KEY = 'pss_live_0123456789abcdef';

/** The words a shell makes of a command (with `variables` in its environment), `curl` left out. */
const shellWords = (command: string, variables: Record<string, string> = {}) =>
  execFileSync('sh', ['-c', command.replace(/^curl /, `printf '%s\\0' `)], {
    env: { PATH: process.env.PATH, ...variables },
    encoding: 'utf8',
  })
    .split('\0')
    .slice(0, -1);

/** The words that follow `flag`, wherever it appears. */
const after = (words: string[], flag: string) => words.filter((_, i) => words[i - 1] === flag);

describe('curlCommand', () => {
  it('posts the fields typed as the API names them, empty ones left out, numbers as numbers', () => {
    const body = searchBody(
      {
        ...EMPTY_FIELDS,
        reference: '1K0 615 301 AA',
        make: 'Volkswagen',
        part: 'Disco de travão',
        price_max: '80.5',
      },
      [{ id: 42, name: 'Disco de travão' }],
    );
    const words = shellWords(
      curlCommand({
        baseUrl: BASE_URL,
        path: '/data/search',
        body,
        credential: { kind: 'apiKey', key: KEY },
      }),
    );
    expect(JSON.parse(after(words, '-d')[0]!)).toEqual({
      reference: '1K0 615 301 AA',
      vehicle_make: 'Volkswagen',
      part_id: 42,
      price_max: 80.5,
      per_page: 20,
    });
    expect(after(words, '-H')).toContain('Content-Type: application/json');
    expect(words.slice(0, 3)).toEqual(['-s', '-X', 'POST']);
  });

  it('leaves a part out when no part of the catalog has the name typed', () => {
    expect(searchBody({ ...EMPTY_FIELDS, part: 'Disco' }, [{ id: 42, name: 'Disco de travão' }])).toEqual({
      per_page: 20,
    });
  });

  it('quotes every value for the shell: quotes, $ and backticks reach curl as typed', () => {
    const text = `O'Brien's "Golf" $HOME \`id\` \\ ;`;
    const command = curlCommand({
      baseUrl: BASE_URL,
      path: '/data/search',
      body: searchBody({ ...EMPTY_FIELDS, text }, []),
      credential: { kind: 'apiKey', key: `it's` },
    });
    const words = shellWords(command, { HOME: '/nowhere' });
    expect(JSON.parse(after(words, '-d')[0]!).text).toBe(text);
    expect(after(words, '-H')).toContain(`X-API-Key: it's`);
  });

  it("carries an API key as it is: the person's own, to paste into a script", () => {
    const command = curlCommand({
      baseUrl: BASE_URL,
      path: '/data/search/stats',
      body: {},
      credential: { kind: 'apiKey', key: KEY },
    });
    expect(command).toContain(`-H 'X-API-Key: ${KEY}'`);
    expect(command).not.toContain('Authorization');
  });

  it('never carries the session token: it reads it from $PSS_SESSION_TOKEN', () => {
    expect(SESSION_TOKEN_VARIABLE).toBe('PSS_SESSION_TOKEN');
    const command = curlCommand({
      baseUrl: BASE_URL,
      path: '/data/search',
      body: {},
      credential: { kind: 'bearer' },
    });
    expect(command).toContain('-H "Authorization: Bearer $PSS_SESSION_TOKEN"');
    expect(command).not.toContain('X-API-Key');
    // the shell puts the token in, from the variable the person set
    const words = shellWords(command, { PSS_SESSION_TOKEN: 'the-token' });
    expect(after(words, '-H')).toContain('Authorization: Bearer the-token');
  });

  it("posts to the base URL given (the page's origin), then the path", () => {
    const at = (baseUrl: string, path: string) =>
      shellWords(curlCommand({ baseUrl, path, body: {}, credential: { kind: 'bearer' } }))[3];
    expect(at(BASE_URL, '/data/search')).toBe('https://pss.example.com/data/search');
    expect(at('http://127.0.0.1:3000', '/data/search/stats')).toBe('http://127.0.0.1:3000/data/search/stats');
  });
});
