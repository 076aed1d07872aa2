/*
 * The card params check, written out: exactly what the shipped JSON Schema
 * (schema/commands-extension-v1.schema.json) accepts, without a schema compiler.
 * A compiler would weigh some 120 KB in a browser bundle and build its checks
 * with `new Function`, which a strict Content-Security-Policy forbids.
 * params.test.ts holds this to ajv's verdict on the schema itself.
 */

const PARAMS_KEYS: ReadonlySet<string> = new Set(['commands']);
const SPEC_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'argument_hint']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  return Object.keys(value).every((key) => allowed.has(key));
}

/** `$defs/CommandSpec`: `name` and `description` strings, an optional `argument_hint` string, nothing else. */
function isCommandSpec(value: unknown): boolean {
  if (!isObject(value) || !onlyKeys(value, SPEC_KEYS)) return false;
  if (typeof value['name'] !== 'string' || typeof value['description'] !== 'string') return false;
  const hint = value['argument_hint'];
  // Like a schema validator, a key holding `undefined` counts as absent.
  return hint === undefined || typeof hint === 'string';
}

/** The schema's root: an object with at most `commands`, an array of command specs. */
export function paramsMatchSchema(params: unknown): boolean {
  if (!isObject(params) || !onlyKeys(params, PARAMS_KEYS)) return false;
  const commands = params['commands'];
  if (commands === undefined) return true;
  return Array.isArray(commands) && commands.every(isCommandSpec);
}
