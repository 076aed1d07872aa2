import { describe, expect, it } from 'vitest';
import { callersRule, customCommandAccess } from './callers.js';

const groups = {
  inGroup: (principal: string, group: string) => group === 'ops' && principal === 'alice',
  groupNames: ['ops'],
};
const caller = (name: string, authenticated = true) => ({ name, authenticated });

describe('callersRule (SEMANTICS §9)', () => {
  it('allows the principals named, and the members of the groups named', () => {
    const rule = callersRule({ principals: ['bob'], groups: ['ops'] }, groups);
    expect(rule(caller('bob'))).toBe(true);
    expect(rule(caller('alice'))).toBe(true);
    expect(rule(caller('carol'))).toBe(false);
  });

  it('a caller without a key is nobody, whatever their name', () => {
    const rule = callersRule({ principals: ['bob'], groups: [] }, groups);
    expect(rule(caller('bob', false))).toBe(false);
  });
});

describe('customCommandAccess', () => {
  it('leaves a command without callers open, and warns about rules nobody can meet', () => {
    const warnings: string[] = [];
    const warn = (_fields: Record<string, unknown>, message: string) => warnings.push(message);
    expect(customCommandAccess(groups, warn)({ name: 'open' })).toBeUndefined();
    const noKeys = customCommandAccess(
      undefined,
      warn,
    )({
      name: 'ops-only',
      callers: { principals: ['alice'], groups: [] },
    });
    expect(noKeys?.(caller('alice'))).toBe(false);
    customCommandAccess(
      groups,
      warn,
    )({
      name: 'x',
      callers: { principals: [], groups: ['nobody'] },
    });
    expect(warnings).toEqual([
      expect.stringMatching(/API keys are off/),
      expect.stringMatching(/groups the keys file does not define/),
    ]);
  });
});
