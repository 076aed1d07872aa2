import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { filteredInput, filterKeys, splitKeys } from './key-filter.js';

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
