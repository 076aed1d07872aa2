/**
 * What the terminal shows comes from the network. For any text fast-check
 * can make, escape sequences included, what the sanitizer lets through must
 * drive nothing: no ESC, no C0 or C1 control but newline (and tab where
 * asked), no DEL, no bidirectional override or isolate.
 */
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nastyText } from './testing.js';
import { sendOutcome, sendResultJson } from './send-result.js';
import { escapeJson, sanitizeChunk, sanitizeLine, sanitizeText } from './sanitize.js';
import { shortId } from './views.js';

const RUNS = 5_000;

/* eslint-disable no-control-regex -- these patterns name the characters that must not appear */
/** Anything a terminal may act on, but newline and tab. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const TAB = /\t/;
const NEWLINE = /[\n\r\u2028\u2029]/;
/** What JSON.stringify leaves raw that a terminal may act on. */
const ACTIVE_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
/* eslint-enable no-control-regex */

/** Text with escape sequences, controls and bidi characters, short or long. */
const text = fc.oneof(nastyText(60), nastyText(2_000));

describe('sanitizeText, sanitizeLine and sanitizeChunk: nothing that drives a terminal gets through', () => {
  it('sanitizeText keeps newlines only; with keepTabs, tabs too', () => {
    fc.assert(
      fc.property(text, (input) => {
        const clean = sanitizeText(input);
        expect(clean).not.toMatch(ACTIVE);
        expect(clean).not.toMatch(TAB);
        expect(clean).not.toMatch(/[\r\u2028\u2029]/);
        expect(sanitizeText(input, { keepTabs: true })).not.toMatch(ACTIVE);
      }),
      { numRuns: RUNS },
    );
  });

  it('sanitizeLine is one line', () => {
    fc.assert(
      fc.property(text, (input) => {
        const line = sanitizeLine(input);
        expect(line).not.toMatch(ACTIVE);
        expect(line).not.toMatch(NEWLINE);
      }),
      { numRuns: RUNS },
    );
  });

  it('sanitizing is idempotent, and leaves clean text alone', () => {
    fc.assert(
      fc.property(text, fc.string({ unit: 'grapheme-ascii' }), (input, plain) => {
        const once = sanitizeText(input);
        expect(sanitizeText(once)).toBe(once);
        const printable = plain.replace(/[^\x20-\x7e\n]/g, '');
        expect(sanitizeText(printable)).toBe(printable);
      }),
      { numRuns: RUNS },
    );
  });

  it('a stream cut into any chunks comes out inert, a sequence split across chunks included', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (input, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort(
          (a, b) => a - b,
        );
        let pending = '';
        let shown = '';
        let from = 0;
        for (const point of [...points, input.length]) {
          const next = sanitizeChunk(pending, input.slice(from, point));
          shown += next.text;
          pending = next.pending;
          from = point;
        }
        shown += sanitizeText(pending);
        expect(shown).not.toMatch(ACTIVE);
      }),
      { numRuns: RUNS },
    );
  });

  it('shortId, which the header and the task picker draw, is inert too', () => {
    fc.assert(
      fc.property(text, (id) => {
        expect(shortId(id)).not.toMatch(ACTIVE);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('escapeJson: the same JSON, printable', () => {
  it('parses back to the same value, with no raw character a terminal acts on', () => {
    fc.assert(
      fc.property(fc.jsonValue(), text, (value, string) => {
        for (const input of [value, string, { text: string, nested: [string, value] }]) {
          const json = escapeJson(JSON.stringify(input));
          expect(json).not.toMatch(ACTIVE);
          expect(json).not.toMatch(ACTIVE_IN_JSON);
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(input)));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

function agentMessage(texts: string[]): Message {
  return {
    messageId: 'm',
    contextId: 'c',
    taskId: 't',
    role: Role.ROLE_AGENT,
    parts: texts.map((value) => ({
      content: { $case: 'text', value },
      metadata: undefined,
      filename: '',
      mediaType: '',
    })),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

describe('`a2a-harness send` prints only inert text', () => {
  const state = fc.constantFrom(...Object.values(TaskState).filter((v) => typeof v === 'number'));

  it('the reply or answer it prints, from a Task or a Message, for any text the agent sends', () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 3 }),
        fc.array(text, { maxLength: 2 }),
        state,
        (replies, artifacts, s) => {
          const task: Task = {
            id: 't',
            contextId: 'c',
            status: { state: s as TaskState, message: agentMessage(replies), timestamp: undefined },
            history: [],
            artifacts: [
              {
                artifactId: 'a',
                name: '',
                description: '',
                parts: agentMessage(artifacts).parts,
                metadata: undefined,
                extensions: [],
              },
            ],
            metadata: undefined,
          };
          for (const result of [task, agentMessage(replies)]) {
            const outcome = sendOutcome(result);
            expect(outcome.text).not.toMatch(ACTIVE);
            // --json prints JSON: C0 controls are escaped by JSON itself, the rest by escapeJson.
            expect(sendResultJson(result)).not.toMatch(ACTIVE_IN_JSON);
            expect(sendResultJson(result).replace(/\n/g, '')).not.toMatch(ACTIVE);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
