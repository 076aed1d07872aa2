import type { Response } from 'express';

/**
 * `res.status(status).json(body)` as Express writes it with this app's
 * settings (no replacer, no spaces, no ETag; a POST is never "fresh"): the
 * same status, headers (names, case and order) and bytes, without the content
 * type parsing and re-formatting `res.send` does on every answer. A guard that
 * wrapped `res.json` for this request (`jsonRpcGuard` keeping an id of 0) is honoured.
 */
export function answerJson(res: Response, status: number, body: unknown): void {
  if (Object.hasOwn(res, 'json')) {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text, 'utf8');
}
