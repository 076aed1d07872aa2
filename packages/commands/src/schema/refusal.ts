import refusal from './refusal.schema.json' with { type: 'json' };

/** Any refused command's data part: `{"error": {"code": "<kebab-case>", "message": "..."}}`. */
export const commandRefusalSchema: Readonly<Record<string, unknown>> = refusal;
