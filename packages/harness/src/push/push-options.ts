/** Push notifications: the config file's `push`. */
export interface PushOptions {
  /** Serve push notification configs and send webhooks; the card says `pushNotifications: true`. */
  enabled: boolean;
  /** Let webhooks go to loopback, private and link-local addresses (a trusted network, tests). */
  allowPrivateNetworks: boolean;
  /** Tries per event and webhook, the first included; then the event is given up for that webhook. */
  maxAttempts: number;
  /** The wait before the first retry; each later wait doubles, up to `maxRetryDelayMs`. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** How long one POST may take, answer included. */
  timeoutMs: number;
  /** How many configs one task may have. */
  configsPerTask: number;
  /** Events that may wait for one webhook; past them, new events are dropped for it, with a warning. */
  queuedPerWebhook: number;
}

export const DEFAULT_PUSH_OPTIONS: PushOptions = {
  enabled: false,
  allowPrivateNetworks: false,
  maxAttempts: 5,
  retryDelayMs: 1_000,
  maxRetryDelayMs: 60_000,
  timeoutMs: 10_000,
  configsPerTask: 10,
  queuedPerWebhook: 100,
};

const milliseconds = { type: 'integer', minimum: 1, maximum: 3_600_000 } as const;

export const PUSH_OPTIONS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    allowPrivateNetworks: { type: 'boolean' },
    maxAttempts: { type: 'integer', minimum: 1, maximum: 100 },
    retryDelayMs: milliseconds,
    maxRetryDelayMs: milliseconds,
    timeoutMs: milliseconds,
    configsPerTask: { type: 'integer', minimum: 1, maximum: 1000 },
    queuedPerWebhook: { type: 'integer', minimum: 1, maximum: 100_000 },
  },
} as const;

/** The wait before retry number `retry` (1 for the first): doubling, capped. */
export function retryDelay(options: PushOptions, retry: number): number {
  return Math.min(options.retryDelayMs * 2 ** (retry - 1), options.maxRetryDelayMs);
}
