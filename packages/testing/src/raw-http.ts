import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written byte for byte on a fresh socket, as curl sends it
 * (`Connection: close`, `Content-Length`), and the response read to the end.
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
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(parseResponse(received)));
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
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
