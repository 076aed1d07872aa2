import params from './command-completion-v1.schema.json' with { type: 'json' };
import request from './completion-request.schema.json' with { type: 'json' };
import response from './completion-response.schema.json' with { type: 'json' };

/** The completion extension's card params schema, exactly as its spec text gives it. */
export const commandCompletionParamsSchema: Readonly<Record<string, unknown>> = params;
/** The body a client POSTs to the completion endpoint. */
export const completionRequestSchema: Readonly<Record<string, unknown>> = request;
/** The endpoint's 200 answer. */
export const completionResponseSchema: Readonly<Record<string, unknown>> = response;
