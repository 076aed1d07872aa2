import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from './config.js';
import { DEFAULT_LIMITS, resolveLimits } from './limits.js';

describe('config file', () => {
  it('reads YAML', () => {
    const config = parseConfig(
      'defaultModel: local/llama3\nproviders:\n  - name: local\n    baseUrl: http://127.0.0.1:11434/v1\n    models: [llama3]\n',
      'harness.yaml',
    );
    expect(config.defaultModel).toBe('local/llama3');
    expect(config.providers?.[0]).toEqual({
      name: 'local',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: ['llama3'],
    });
  });

  it('reads JSON', () => {
    expect(parseConfig('{"offline": {"latencyMs": 5}}', 'harness.json').offline?.latencyMs).toBe(5);
  });

  it('turns.modelWorker is a boolean', () => {
    expect(parseConfig('{"turns": {"modelWorker": false}}', 'h.json').turns?.modelWorker).toBe(
      false,
    );
    expect(() => parseConfig('{"turns": {"modelWorker": "no"}}', 'h.json')).toThrow(
      /\/turns\/modelWorker/,
    );
  });

  it('reads push; bad push keys are named', () => {
    const config = parseConfig('push:\n  enabled: true\n  maxAttempts: 3\n', 'h.yaml');
    expect(config.push).toEqual({ enabled: true, maxAttempts: 3 });
    expect(() =>
      parseConfig('{"push": {"maxAttempts": 0, "allowPrivate": true}}', 'h.json'),
    ).toThrow(
      /\/push\/maxAttempts must be >= 1.*additional properties "allowPrivate"|additional properties "allowPrivate".*\/push\/maxAttempts must be >= 1/,
    );
  });

  it('an empty file is an empty config', () => {
    expect(parseConfig('', 'empty.yaml')).toEqual({});
  });

  it('names the file and every bad key', () => {
    let error: unknown;
    try {
      parseConfig('providers:\n  - name: Bad Name\n    baseUrl: ftp://x\nextra: 1\n', 'h.yaml');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('h.yaml');
    expect(message).toContain('"extra"');
    expect(message).toContain('/providers/0/name');
    expect(message).toContain('/providers/0/baseUrl');
  });

  it('a file that is not YAML is a clear error', () => {
    expect(() => parseConfig('a: [1, 2', 'broken.yaml')).toThrow(ConfigError);
  });

  it('a missing file is a clear error', () => {
    expect(() => loadConfig('/nonexistent/harness.yaml')).toThrow(
      /cannot read config file \/nonexistent\/harness.yaml: ENOENT/,
    );
  });

  it('no file is the empty config', () => {
    expect(loadConfig(undefined)).toEqual({});
  });

  it('reads limits; a key left out keeps its default', () => {
    const config = parseConfig('limits:\n  bodyBytes: 4194304\n  queuedPerTask: 0\n', 'h.yaml');
    expect(config.limits).toEqual({ bodyBytes: 4194304, queuedPerTask: 0 });
    expect(resolveLimits(config.limits)).toEqual({
      ...DEFAULT_LIMITS,
      bodyBytes: 4194304,
      queuedPerTask: 0,
    });
  });

  it('refuses limits that are not whole numbers of at least 1, and unknown limits', () => {
    let error: unknown;
    try {
      parseConfig(
        'limits:\n  bodyBytes: 0\n  textChars: 1.5\n  argumentChars: lots\n  commandFileBytes: 1e12\n  maxTurns: 3\n',
        'h.yaml',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('/limits/bodyBytes must be >= 1');
    expect(message).toContain('/limits/textChars must be integer');
    expect(message).toContain('/limits/argumentChars must be integer');
    expect(message).toContain('/limits/commandFileBytes must be <= 16777216');
    expect(message).toContain('"maxTurns"');
  });
});

describe('default limits', () => {
  it('are the documented ones', () => {
    expect(DEFAULT_LIMITS).toEqual({
      bodyBytes: 1048576,
      partsPerMessage: 64,
      textChars: 100000,
      argumentChars: 10000,
      queuedPerTask: 16,
      streamBufferBytes: 1048576,
      streamsPerPrincipal: 100,
      commandFileBytes: 65536,
      commandsPerMinute: 0,
      commandBurst: 20,
      turnsPerMinute: 0,
      turnBurst: 5,
      idChars: 256,
      historyCharsPerOwner: 268435456,
      maxConnections: 4096,
      headersTimeoutMs: 10000,
      requestTimeoutMs: 30000,
    });
  });
});
