import { defaultServerCallContextBuilder, type ServerCallContextBuilder } from '@a2a-js/sdk/server';
import { COMMANDS_EXTENSION_URI } from '../spec.js';

/**
 * SEMANTICS §6: echo the extension in `A2A-Extensions` when the request names
 * it. It must be activated here, while the context is built: the SSE response
 * sends its headers before any executor or command runs.
 */
export function commandsContextBuilder(
  base: ServerCallContextBuilder = defaultServerCallContextBuilder,
): ServerCallContextBuilder {
  return (options) => {
    const context = base(options);
    if (options.extensions?.includes(COMMANDS_EXTENSION_URI)) {
      context.addActivatedExtension(COMMANDS_EXTENSION_URI);
    }
    return context;
  };
}
