import { describe, expect, it } from 'vitest';
import { openDatabase, redactUrl } from './database.js';

describe('database URLs in messages', () => {
  it('lose their password', () => {
    expect(redactUrl('postgres://app:s3cret@db.internal:5432/tasks')).toBe(
      'postgres://app:***@db.internal:5432/tasks',
    );
    expect(redactUrl('sqlite:/data/tasks.db')).toBe('sqlite:/data/tasks.db');
  });

  it('a server that cannot be reached is named without the password', async () => {
    const failure = await openDatabase('postgres://app:s3cret-pw@127.0.0.1:1/tasks').then(
      () => expect.fail('opened'),
      (error: Error) => error.message,
    );
    expect(failure).toContain('postgres://app:***@127.0.0.1:1/tasks');
    expect(failure).not.toContain('s3cret-pw');
  });
});
