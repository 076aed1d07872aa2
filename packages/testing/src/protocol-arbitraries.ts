/**
 * fast-check generators of what a hostile or broken A2A client may send: text
 * with escapes and lone surrogates, JSON of the wrong types, odd ids, unknown
 * methods, deep nesting. The property tests pair them with what must hold of
 * every answer.
 */
import fc from 'fast-check';
import { A2A_METHODS } from 'a2a-harness/internal';

// The hostile text is the terminal chat's too (its sanitizer's property test): one generator.
import { nastyText } from 'a2a-terminal-chat/testing';

export { nastyText };

/** JSON values, with the ones that trip JavaScript: `toString` keys, `__proto__`, huge and negative-zero numbers. */
export const trickyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  fc.constantFrom<unknown>(
    null,
    0,
    -0,
    1e308,
    -1e308,
    2 ** 64,
    Number.MAX_SAFE_INTEGER + 2,
    5e-324,
    '',
    [],
    {},
    [null],
    { toString: 1 },
    { toString: 1, valueOf: 2 },
    JSON.parse('{"__proto__": {"polluted": true}}'),
    { constructor: { prototype: 1 } },
  ),
  nastyText(),
);

/** The A2A methods the harness serves: its routing module's own list. */
export const KNOWN_METHODS = A2A_METHODS;

export const method: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KNOWN_METHODS) },
  fc.constantFrom(
    'message/send',
    'tasks/get',
    'sendMessage',
    'SendMessage ',
    '',
    '__proto__',
    'toString',
  ),
  nastyText(20),
  trickyJson,
);

/** JSON-RPC ids: valid ones (strings, whole numbers, null) and every kind of invalid one. */
export const id: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.integer() },
  { weight: 2, arbitrary: nastyText(12) },
  fc.constantFrom<unknown>(null, 0, '', -0, 1e308, 2 ** 64, -(2 ** 53), 1.5, true, {}, [1]),
  trickyJson,
);

/** The id a JSON-RPC server must echo: a string or a whole number, else none. */
export function validIdOf(request: unknown): string | number | undefined {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return undefined;
  if (!('id' in request)) return undefined;
  const value = (request as { id: unknown }).id;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return undefined;
}

/** Parts in every shape: the four kinds, wrong-typed fields, and values that are no part at all. */
export const part: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyText().map((text) => ({ text })) },
  fc.record({ data: trickyJson }),
  fc.record({ url: fc.oneof(fc.webUrl(), nastyText()) }),
  fc.record({ raw: fc.oneof(fc.base64String({ maxLength: 16 }), nastyText(8)) }),
  fc.record(
    { text: trickyJson, data: trickyJson, raw: trickyJson, url: trickyJson },
    { requiredKeys: [] },
  ),
  fc.record(
    { text: nastyText(), metadata: trickyJson, mediaType: trickyJson, filename: trickyJson },
    { requiredKeys: ['text'] },
  ),
  trickyJson,
);

/** Messages: mostly message-shaped, with any field of the wrong type, and non-messages. */
export function message(taskIds: readonly string[]): fc.Arbitrary<unknown> {
  const taskId = fc.oneof(fc.constantFrom(...taskIds), fc.uuid(), nastyText(12), trickyJson);
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record(
        {
          messageId: fc.oneof({ weight: 4, arbitrary: fc.uuid() }, nastyText(8), trickyJson),
          role: fc.oneof(
            { weight: 4, arbitrary: fc.constant('ROLE_USER') },
            fc.constantFrom('ROLE_AGENT', 'ROLE_UNSPECIFIED', 'user', 1, 2, -1),
            trickyJson,
          ),
          parts: fc.oneof({ weight: 4, arbitrary: fc.array(part, { maxLength: 4 }) }, trickyJson),
          taskId,
          contextId: fc.oneof(fc.uuid(), nastyText(8), trickyJson),
          metadata: trickyJson,
          extensions: fc.oneof(fc.array(nastyText(8), { maxLength: 2 }), trickyJson),
          referenceTaskIds: fc.oneof(fc.array(fc.uuid(), { maxLength: 2 }), trickyJson),
        },
        { requiredKeys: [] },
      ),
    },
    trickyJson,
  );
}

/** SendMessage params of every shape. */
export function sendParams(taskIds: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record(
        {
          message: message(taskIds),
          configuration: fc.oneof(
            fc.record(
              {
                returnImmediately: fc.oneof(fc.boolean(), trickyJson),
                historyLength: fc.oneof(fc.integer({ min: -5, max: 5 }), trickyJson),
                acceptedOutputModes: fc.oneof(fc.array(nastyText(8), { maxLength: 2 }), trickyJson),
              },
              { requiredKeys: [] },
            ),
            trickyJson,
          ),
          metadata: trickyJson,
          tenant: fc.oneof(nastyText(8), trickyJson),
        },
        { requiredKeys: [] },
      ),
    },
    trickyJson,
  );
}

/** Params of the other methods: ids, page sizes and tokens of every type. */
export function otherParams(taskIds: readonly string[]): fc.Arbitrary<unknown> {
  const taskId = fc.oneof(fc.constantFrom(...taskIds), fc.uuid(), nastyText(12), trickyJson);
  return fc.oneof(
    fc.record(
      {
        id: taskId,
        historyLength: fc.oneof(fc.integer({ min: -3, max: 3 }), trickyJson),
        pageSize: fc.oneof(fc.integer({ min: -3, max: 200 }), trickyJson),
        pageToken: fc.oneof(nastyText(12), trickyJson),
        status: trickyJson,
        contextId: fc.oneof(fc.uuid(), trickyJson),
        statusTimestampAfter: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          nastyText(8),
          trickyJson,
        ),
        taskId,
        tenant: fc.oneof(nastyText(8), trickyJson),
      },
      { requiredKeys: [] },
    ),
    trickyJson,
  );
}

/** A JSON-RPC request object: any member may be missing or of the wrong type. */
export function envelope(taskIds: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, trickyJson),
      id,
      method,
      params: fc.oneof(sendParams(taskIds), otherParams(taskIds), trickyJson),
    },
    { requiredKeys: [] },
  );
}

/** `depth` arrays or objects inside each other, as JSON text built without recursion. */
export const deepJson = fc
  .tuple(fc.integer({ min: 90, max: 5_000 }), fc.constantFrom('array', 'object', 'mixed'))
  .map(([depth, shape]) => {
    if (shape === 'array') return { depth, text: '['.repeat(depth) + ']'.repeat(depth) };
    if (shape === 'object') return { depth, text: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) };
    const half = Math.floor(depth / 2);
    return { depth: 2 * half, text: '[{"a":'.repeat(half) + '0' + '}]'.repeat(half) };
  });

/** JSON-RPC number literals JSON.stringify cannot write: huge, tiny, negative zero, big integers. */
export const numberLiteral = fc.oneof(
  fc.constantFrom('1e308', '-1e308', '1E400', '-0', '0.0', '1.0', '-0.0e5', '5e-324', '1e-400'),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map(String),
  fc.constantFrom('18446744073709551616', '9007199254740993', '123456789012345678901234567890'),
);
