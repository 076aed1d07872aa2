/**
 * What the terminal shows comes from the network. For any text fast-check
 * can make, escape sequences included, what the sanitizer lets through must
 * drive nothing: no ESC, no C0 or C1 control but newline (and tab where
 * asked), no DEL, no bidirectional override or isolate. The properties assert
 * with node:assert: vitest's expect, thousands of times over, took most of the time.
 */
import assert from 'node:assert/strict';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import fc from 'fast-check';
import { describe, it } from 'vitest';
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
        assert.doesNotMatch(clean, ACTIVE);
        assert.doesNotMatch(clean, TAB);
        assert.doesNotMatch(clean, /[\r\u2028\u2029]/);
        assert.doesNotMatch(sanitizeText(input, { keepTabs: true }), ACTIVE);
      }),
      { numRuns: RUNS },
    );
  });

  it('sanitizeLine is one line', () => {
    fc.assert(
      fc.property(text, (input) => {
        const line = sanitizeLine(input);
        assert.doesNotMatch(line, ACTIVE);
        assert.doesNotMatch(line, NEWLINE);
      }),
      { numRuns: RUNS },
    );
  });

  it('sanitizing is idempotent, and leaves clean text alone', () => {
    fc.assert(
      fc.property(text, fc.string({ unit: 'grapheme-ascii' }), (input, plain) => {
        const once = sanitizeText(input);
        assert.equal(sanitizeText(once), once);
        const printable = plain.replace(/[^\x20-\x7e\n]/g, '');
        assert.equal(sanitizeText(printable), printable);
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
        assert.doesNotMatch(shown, ACTIVE);
      }),
      { numRuns: RUNS },
    );
  });

  it('shortId, which the header and the task picker draw, is inert too', () => {
    fc.assert(
      fc.property(text, (id) => {
        assert.doesNotMatch(shortId(id), ACTIVE);
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
          assert.doesNotMatch(json, ACTIVE);
          assert.doesNotMatch(json, ACTIVE_IN_JSON);
          assert.deepStrictEqual(JSON.parse(json), JSON.parse(JSON.stringify(input)));
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
            assert.doesNotMatch(outcome.text, ACTIVE);
            // --json prints JSON: C0 controls are escaped by JSON itself, the rest by escapeJson.
            const json = sendResultJson(result);
            assert.doesNotMatch(json, ACTIVE_IN_JSON);
            assert.doesNotMatch(json.replace(/\n/g, ''), ACTIVE);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
