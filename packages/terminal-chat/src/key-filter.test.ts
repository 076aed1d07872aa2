import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { filteredInput, filterKeys, pastedText, splitKeys } from './key-filter.js';

const ESC = '\u001b';

describe('filterKeys', () => {
  it('keeps the keys the chat uses', () => {
    const keys = [
      `${ESC}[A`,
      `${ESC}[B`,
      `${ESC}[C`,
      `${ESC}[D`,
      `${ESC}[H`,
      `${ESC}[F`,
      `${ESC}[5~`,
      `${ESC}[6~`,
      `${ESC}[3~`,
      `${ESC}[1;5A`,
      `${ESC}[Z`,
      `${ESC}${ESC}[A`,
      `${ESC}[[A`,
      `${ESC}OA`,
      ESC,
      '\r',
      '\t',
      'plain text',
    ];
    for (const key of keys) expect(filterKeys(key)).toBe(key);
  });

  it('drops sequences ink cannot name, which would crash it (SGR, Ctrl+F1, focus reports)', () => {
    expect(filterKeys(`pasted ${ESC}[31mred${ESC}[0m text`)).toBe('pasted red text');
    expect(filterKeys(`${ESC}[1;5P`)).toBe('');
    expect(filterKeys(`${ESC}[99;5~`)).toBe('');
    expect(filterKeys(`${ESC}[I${ESC}[O`)).toBe('');
    expect(filterKeys(`${ESC}[200~paste${ESC}[201~`)).toBe('paste');
  });
});

describe('splitKeys', () => {
  it('cuts each control key out of a read; text, escape sequences and pasted lines stay whole', () => {
    expect(splitKeys('\u0003\u0003')).toEqual(['\u0003', '\u0003']);
    expect(splitKeys('\u0015typed')).toEqual(['\u0015', 'typed']);
    expect(splitKeys('ab\u007f\u007fc')).toEqual(['ab', '\u007f', '\u007f', 'c']);
    expect(splitKeys(`one\rtwo\r${ESC}[A`)).toEqual([`one\rtwo\r${ESC}[A`]);
    // Alt+Backspace is ESC DEL: one key.
    expect(splitKeys(`${ESC}\u007f`)).toEqual([`${ESC}\u007f`]);
  });

  it('in a terminal that marks its pastes, cuts Enter, Tab and line feed out as keys too', () => {
    expect(splitKeys('hi\rthere', true)).toEqual(['hi', '\r', 'there']);
    expect(splitKeys('/he\t\r', true)).toEqual(['/he', '\t', '\r']);
    expect(splitKeys(`a\nb${ESC}\r`, true)).toEqual(['a', '\n', `b${ESC}\r`]);
  });
});

describe('filteredInput', () => {
  function fakeTerminal() {
    const source = new PassThrough() as PassThrough & {
      isTTY: boolean;
      setRawMode: (mode: boolean) => void;
      ref: () => void;
      unref: () => void;
      raw?: boolean;
    };
    Object.assign(source, {
      isTTY: true,
      setRawMode: (mode: boolean) => (source.raw = mode),
      ref: () => undefined,
      unref: () => undefined,
    });
    return source;
  }

  async function read(stream: NodeJS.ReadStream): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 60));
    let text = '';
    for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) text += String(chunk);
    return text;
  }

  it('passes keys on, filtered, and forwards raw mode to the terminal', async () => {
    const source = fakeTerminal();
    const input = filteredInput(source as unknown as NodeJS.ReadStream);
    input.stream.setRawMode(true);
    expect(source.raw).toBe(true);
    source.write(`a${ESC}[31mb${ESC}[A`);
    expect(await read(input.stream)).toBe(`ab${ESC}[A`);
    input.close();
  });

  it('waits for the rest of a sequence cut between two reads', async () => {
    const source = fakeTerminal();
    const input = filteredInput(source as unknown as NodeJS.ReadStream);
    source.write(`x${ESC}[1;`);
    source.write('5Py');
    expect(await read(input.stream)).toBe('xy');
    input.close();
  });

  /** Every piece ink reads from `input`, in order. */
  function pieces(input: { stream: NodeJS.ReadStream }): string[] {
    const reads: string[] = [];
    input.stream.on('readable', () => {
      for (let chunk = input.stream.read(); chunk !== null; chunk = input.stream.read()) {
        reads.push(String(chunk));
      }
    });
    return reads;
  }

  describe('a bracketed paste', () => {
    /**
     * Lets the filter hand on what it has, without letting any of its own timers
     * run: each test here fakes `setTimeout`, so a busy machine's stall between two
     * reads cannot pass for a terminal that stopped sending. `ms` moves the fake clock.
     */
    const settle = async (ms = 0) => {
      if (ms > 0) vi.advanceTimersByTime(ms);
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
    afterEach(() => vi.useRealTimers());

    it('hands on a bracketed paste as one piece marked pasted, line breaks and tabs kept', async () => {
      const source = fakeTerminal();
      const input = filteredInput(source as unknown as NodeJS.ReadStream);
      const reads = pieces(input);
      source.write(`x${ESC}[200~one\r\ntwo\tthree${ESC}[31m!\r${ESC}[201~y`);
      await settle();
      expect(reads).toHaveLength(3);
      expect(reads[0]).toBe('x');
      expect(pastedText(reads[1]!)).toBe('one\ntwo\tthree!\n');
      expect(reads[2]).toBe('y');
      expect(pastedText('typed')).toBeUndefined();
      input.close();
    });

    it('puts a paste back together when it and its markers come over several reads', async () => {
      const source = fakeTerminal();
      const input = filteredInput(source as unknown as NodeJS.ReadStream);
      const reads = pieces(input);
      for (const part of [`a${ESC}[20`, '0~first\r', 'second', `${ESC}[2`, '01~b']) {
        source.write(part);
        await settle();
      }
      await settle();
      expect(reads.map((read) => pastedText(read) ?? `typed:${read}`)).toEqual([
        'typed:a',
        'first\nsecond',
        'typed:b',
      ]);
      input.close();
    });

    it('once pastes are marked, an Enter or Tab typed among other keys is a key of its own', async () => {
      const source = fakeTerminal();
      const input = filteredInput(source as unknown as NodeJS.ReadStream);
      const reads = pieces(input);
      source.write('before\rpaste');
      await settle();
      expect(reads).toEqual(['before\rpaste']);
      source.write(`${ESC}[200~p${ESC}[201~`);
      source.write('hi\rthere\t');
      await settle();
      expect(reads.slice(2)).toEqual(['hi', '\r', 'there', '\t']);
      input.close();
    });

    it('takes a paste whose end marker never comes as it is, after a moment', async () => {
      const source = fakeTerminal();
      const input = filteredInput(source as unknown as NodeJS.ReadStream);
      const reads = pieces(input);
      source.write(`${ESC}[200~cut off`);
      await settle(999);
      expect(reads).toEqual([]);
      await settle(1);
      expect(reads.map((read) => pastedText(read))).toEqual(['cut off']);
      input.close();
    });
  });

  it('hands on the control keys of one read one by one', async () => {
    const source = fakeTerminal();
    const input = filteredInput(source as unknown as NodeJS.ReadStream);
    const reads: string[] = [];
    input.stream.on('readable', () => {
      for (let chunk = input.stream.read(); chunk !== null; chunk = input.stream.read()) {
        reads.push(String(chunk));
      }
    });
    source.write('\u0003\u0003x');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reads).toEqual(['\u0003', '\u0003', 'x']);
    input.close();
  });
});
