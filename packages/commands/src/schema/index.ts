import schema from './commands-extension-v1.schema.json' with { type: 'json' };

/** The JSON Schema of the extension's card params, exactly as the spec text gives it. */
export const commandsExtensionParamsSchema: Readonly<Record<string, unknown>> = schema;
