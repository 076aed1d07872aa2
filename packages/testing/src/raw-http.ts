import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written byte for byte on a fresh socket, as curl sends it
 * (`Connection: close`, `Content-Length`), and the response read to its end:
 * where its length or last chunk says, as curl stops (a server may keep the
 * socket open after a stream), or else where the server closes.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'User-Agent: curl/8.5.0',
    'Accept: */*',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...(body === '' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
    'Connection: close',
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks), method)) finish();
    });
    socket.on('error', (error) => {
      if (!done) reject(error);
    });
    socket.on('end', finish);
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** Whether `raw` holds a whole response: by Content-Length, or to the last chunk. */
function isComplete(raw: Buffer, method: string): boolean {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) return false;
  const head = raw.subarray(0, split).toString('latin1').toLowerCase();
  const status = Number(head.split(' ')[1]);
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return status >= 200;
  }
  let rest = raw.subarray(split + 4);
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) {
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd === -1) return false;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (size === 0) return rest.includes('\r\n\r\n', lineEnd);
      if (rest.length < lineEnd + 2 + size + 2) return false;
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
  }
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  return length ? rest.length >= Number(length[1]) : false;
}

function parseResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function unchunk(chunked: string): string {
  let out = '';
  let rest = chunked;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
