import type { Logger } from 'pino';
import type { ApiKeys } from './api-keys.js';

export interface KeyReloadOptions {
  /** The keys in force: the ones the auth middleware checks against. */
  keys: ApiKeys;
  /** Reads the keys again (environment and file); throws when they cannot be used. */
  load: () => ApiKeys | undefined;
  logger: Logger;
}

/**
 * Reloads the API keys, keeping the old ones when the new cannot be used: a
 * typo in the file must not lock everyone out, nor let everyone in.
 * Returns whether the keys changed.
 */
export function reloadApiKeys({ keys, load, logger }: KeyReloadOptions): boolean {
  let fresh: ApiKeys | undefined;
  try {
    fresh = load();
  } catch (error) {
    logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      'API keys not reloaded: the old keys stay in force',
    );
    return false;
  }
  if (!fresh) {
    // Turning keys off would open every task to anyone: that takes a restart.
    logger.error('API keys not reloaded: no keys left; the old keys stay in force');
    return false;
  }
  const before = new Set(keys.principals);
  const after = new Set(fresh.principals);
  keys.replaceWith(fresh);
  logger.info(
    {
      principals: fresh.principals,
      added: [...after].filter((p) => !before.has(p)),
      removed: [...before].filter((p) => !after.has(p)),
    },
    'API keys reloaded',
  );
  if (fresh.shortKeys.length > 0) {
    logger.warn(
      { principals: fresh.shortKeys },
      'some API keys are shorter than 16 characters and could be guessed; use long random keys',
    );
  }
  return true;
}

/** SIGHUP reloads the keys; returns a function that stops listening. */
export function reloadApiKeysOnHangUp(options: KeyReloadOptions): () => void {
  const onHangUp = () => {
    options.logger.info({ signal: 'SIGHUP' }, 'signal received: reloading API keys');
    reloadApiKeys(options);
  };
  process.on('SIGHUP', onHangUp);
  return () => process.off('SIGHUP', onHangUp);
}
