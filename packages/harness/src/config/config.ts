import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import type { ModelsConfig } from '../models/index.js';
import { PUSH_OPTIONS_SCHEMA, type PushOptions } from '../push/push-options.js';
import { TURN_OPTIONS_SCHEMA, type TurnOptions } from '../turns/turn-options.js';
import { LIMITS_SCHEMA, type Limits } from './limits.js';

/** The config file: YAML or JSON (JSON is YAML). Every key is optional. */
export interface HarnessConfig extends ModelsConfig {
  /** Where custom command files are read, besides `<data>/commands` and `./.a2a-harness/commands`. */
  commandDirs?: string[];
  /** Agent name shown on the card. */
  name?: string;
  /** Input limits; each missing key has its default (`DEFAULT_LIMITS`). */
  limits?: Partial<Limits>;
  /** How turns stream, and when a silent model is given up on (`DEFAULT_TURN_OPTIONS`). */
  turns?: Partial<TurnOptions>;
  /** Push notifications: off unless `enabled` (`DEFAULT_PUSH_OPTIONS`). */
  push?: Partial<PushOptions>;
  /** The gRPC binding: served on its own port only when one is given (here or `--grpc-port`). */
  grpc?: { port?: number };
  /** Instances sharing a PostgreSQL database (docs/scaling.md). */
  cluster?: {
    /** How long an instance's lease lasts unrenewed; its turns are taken over after it. */
    leaseMs?: number;
  };
}

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    defaultModel: { type: 'string', pattern: '^[a-z][a-z0-9-]*/.+$' },
    offline: {
      type: 'object',
      additionalProperties: false,
      properties: { latencyMs: { type: 'number', minimum: 0, maximum: 60000 } },
    },
    providers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'baseUrl'],
        properties: {
          name: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
          baseUrl: { type: 'string', pattern: '^https?://' },
          apiKeyEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          models: { type: 'array', items: { type: 'string', minLength: 1 } },
        },
      },
    },
    commandDirs: { type: 'array', items: { type: 'string', minLength: 1 } },
    limits: LIMITS_SCHEMA,
    turns: TURN_OPTIONS_SCHEMA,
    push: PUSH_OPTIONS_SCHEMA,
    grpc: {
      type: 'object',
      additionalProperties: false,
      properties: { port: { type: 'integer', minimum: 0, maximum: 65535 } },
    },
    cluster: {
      type: 'object',
      additionalProperties: false,
      properties: { leaseMs: { type: 'integer', minimum: 1000, maximum: 600000 } },
    },
  },
} as const;

let validate: ValidateFunction<HarnessConfig> | undefined;
/** Compiled on first use: most starts have no config file, and compiling is a tenth of a start. */
const validator = () => (validate ??= new Ajv({ allErrors: true }).compile<HarnessConfig>(schema));

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses and checks a config file's text; errors name the file and each bad key. */
export function parseConfig(text: string, source: string): HarnessConfig {
  let value: unknown;
  try {
    value = parse(text) ?? {};
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML or JSON: ${(error as Error).message}`);
  }
  const validate = validator();
  if (!validate(value)) {
    const problems = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath || '(top level)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`,
    );
    throw new ConfigError(`${source}: ${problems.join('; ')}`);
  }
  return value;
}

export function loadConfig(file: string | undefined): HarnessConfig {
  if (!file) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read config file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  return parseConfig(text, file);
}
