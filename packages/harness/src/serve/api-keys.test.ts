import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ApiKeys,
  ApiKeysError,
  loadApiKeys,
  parseApiKeyFile,
  parseApiKeyList,
} from './api-keys.js';

describe('HARNESS_API_KEYS', () => {
  it('reads comma-separated principal=key pairs', () => {
    const keys = new ApiKeys(parseApiKeyList('alice=key1, bob=key2,'));
    expect(keys.principalOf('key1')).toBe('alice');
    expect(keys.principalOf('key2')).toBe('bob');
    expect(keys.principals).toEqual(['alice', 'bob']);
  });

  it('knows no other key, nor a prefix, suffix or case change of one', () => {
    const keys = new ApiKeys(parseApiKeyList('alice=Secret-Key-1'));
    for (const guess of ['', 'Secret-Key', 'Secret-Key-12', 'secret-key-1', ' Secret-Key-1'])
      expect(keys.principalOf(guess)).toBeUndefined();
  });

  it('lets one principal hold several keys', () => {
    const keys = new ApiKeys(parseApiKeyList('alice=laptop-key,alice=phone-key'));
    expect(keys.principalOf('laptop-key')).toBe('alice');
    expect(keys.principalOf('phone-key')).toBe('alice');
    expect(keys.principals).toEqual(['alice']);
  });

  it.each([
    ['alice', /expected principal=key/],
    ['=key1', /a principal is/],
    ['al ice=key1', /a principal is/],
    ['alice=', /must be non-empty/],
    ['alice=two words', /must be non-empty printable ASCII/],
  ])('refuses %j with an error that names the entry', (text, error) => {
    expect(() => parseApiKeyList(text)).toThrow(error);
    expect(() => parseApiKeyList(text)).toThrow(/HARNESS_API_KEYS entry 1/);
  });

  it('never repeats a key in an error', () => {
    for (const text of ['alice:hunter2-secret', 'alice=hunter2 secret', 'x=hunter2,y=hunter2']) {
      try {
        new ApiKeys(parseApiKeyList(text));
        expect.fail(`accepted ${text}`);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiKeysError);
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('refuses one key for two principals', () => {
    expect(() => new ApiKeys(parseApiKeyList('alice=same,bob=same'))).toThrow(
      /already the key of "alice"/,
    );
  });

  it('names principals with short keys, to warn about', () => {
    const keys = new ApiKeys(parseApiKeyList('alice=short,bob=0123456789abcdef0123'));
    expect(keys.shortKeys).toEqual(['alice']);
  });
});

describe('--api-keys <file>', () => {
  const file = (text: string) => {
    const name = path.join(mkdtempSync(path.join(os.tmpdir(), 'keys-')), 'keys.txt');
    writeFileSync(name, text);
    return name;
  };

  it('reads one pair per line, skipping blanks and comments; errors name file and line', () => {
    const entries = parseApiKeyFile('# team\n\nalice=key1\r\nbob=key2\n', 'keys.txt');
    expect(entries.map((e) => [e.principal, e.source])).toEqual([
      ['alice', 'keys.txt:3'],
      ['bob', 'keys.txt:4'],
    ]);
    expect(() => parseApiKeyFile('alice=key1\nbroken\n', 'keys.txt')).toThrow(/^keys.txt:2:/);
  });

  it('adds to HARNESS_API_KEYS; nothing configured means no keys', () => {
    const keys = loadApiKeys({ env: 'alice=key1', file: file('bob=key2\n') });
    expect(keys?.principals).toEqual(['alice', 'bob']);
    expect(loadApiKeys({})).toBeUndefined();
    expect(loadApiKeys({ env: '' })).toBeUndefined();
  });

  it('refuses a missing or empty file', () => {
    expect(() => loadApiKeys({ file: '/nonexistent/keys.txt' })).toThrow(/cannot read .*ENOENT/);
    expect(() => loadApiKeys({ file: file('# nobody yet\n') })).toThrow(/no principal=key lines/);
  });
});

describe('replaceWith', () => {
  it('takes the new keys in one step: a removed key names nobody, a new one its principal', () => {
    const keys = new ApiKeys(parseApiKeyList('alice=alice-key-0123456789,bob=bob-key-0123456789'));
    keys.replaceWith(new ApiKeys(parseApiKeyList('bob=bob-key-0123456789,carol=short')));
    expect(keys.principalOf('alice-key-0123456789')).toBeUndefined();
    expect(keys.principalOf('bob-key-0123456789')).toBe('bob');
    expect(keys.principalOf('short')).toBe('carol');
    expect(keys.principals).toEqual(['bob', 'carol']);
    expect(keys.shortKeys).toEqual(['carol']);
  });
});

describe('groups in the keys file (who may run a command)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-groups-'));
  const fileWith = (text: string) => {
    const file = path.join(dir, `keys-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(file, text);
    return file;
  };

  it('reads @group lines beside the keys; old files read as before', () => {
    const keys = loadApiKeys({
      file: fileWith('alice=key1\nbob=key2\ncarol=key3\n@ops = alice, bob\n@leads=carol\n'),
    })!;
    expect(keys.inGroup('alice', 'ops')).toBe(true);
    expect(keys.inGroup('bob', 'ops')).toBe(true);
    expect(keys.inGroup('carol', 'ops')).toBe(false);
    expect(keys.inGroup('carol', 'leads')).toBe(true);
    expect(keys.inGroup('alice', 'nobody')).toBe(false);
    expect(keys.groupNames).toEqual(['leads', 'ops']);
    expect(parseApiKeyFile('alice=key1\n@ops = alice\n', 'keys.txt')).toHaveLength(1);
  });

  it.each([
    [
      'a member without a key',
      'alice=key1\n@ops = alice, dave\n',
      /:2: .*"ops".*without a key: dave/,
    ],
    ['a group defined twice', 'alice=key1\n@ops = alice\n@ops = alice\n', /:3: .*defined twice/],
    ['a group without members', 'alice=key1\n@ops =\n', /:2: .*no members/],
    ['a bad group name', 'alice=key1\n@ ops! = alice\n', /:2: a group name/],
    ['no equals sign', 'alice=key1\n@ops alice\n', /:2: expected @group = /],
  ])('refuses %s, saying where', (_what, text, message) => {
    expect(() => loadApiKeys({ file: fileWith(text) })).toThrow(ApiKeysError);
    expect(() => loadApiKeys({ file: fileWith(text) })).toThrow(message);
  });

  it('a group in HARNESS_API_KEYS is refused: groups live in the file', () => {
    expect(() => parseApiKeyList('alice=key1,@ops=alice')).toThrow(/keys file only/);
  });

  it('a reload takes the new groups with the new keys', () => {
    const keys = new ApiKeys(parseApiKeyList('alice=key1,bob=key2'), [
      { name: 'ops', members: ['alice'], source: 'test' },
    ]);
    keys.replaceWith(
      new ApiKeys(parseApiKeyList('alice=key1,bob=key2'), [
        { name: 'ops', members: ['bob'], source: 'test' },
      ]),
    );
    expect(keys.inGroup('alice', 'ops')).toBe(false);
    expect(keys.inGroup('bob', 'ops')).toBe(true);
  });
});
