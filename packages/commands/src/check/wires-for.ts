/* eslint-disable @typescript-eslint/no-explicit-any -- the checker reads an unknown agent's raw card */
import { GrpcWire } from './grpc-wire.js';
import type { CheckerHttp } from './http.js';
import { JsonRpcWire, RestWire, type AgentWire } from './wire.js';

/**
 * The interfaces of a card the checker can speak, JSON-RPC first: one per
 * binding, A2A 1.0 only (an agent may also name the same endpoints for 0.3).
 */
export function wiresFor(card: any, http: CheckerHttp): AgentWire[] {
  const interfaces: Array<{ url?: string; protocolBinding?: string; protocolVersion?: string }> =
    Array.isArray(card?.supportedInterfaces) ? card.supportedInterfaces : [];
  const wires: AgentWire[] = [];
  const seen = new Set<string>();
  for (const entry of interfaces) {
    if (typeof entry.url !== 'string') continue;
    if (entry.protocolVersion && !entry.protocolVersion.startsWith('1.')) continue;
    if (seen.has(entry.protocolBinding ?? '')) continue;
    seen.add(entry.protocolBinding ?? '');
    if (entry.protocolBinding === 'JSONRPC') wires.push(new JsonRpcWire(entry.url, http));
    if (entry.protocolBinding === 'HTTP+JSON') wires.push(new RestWire(entry.url, http));
    if (entry.protocolBinding === 'GRPC') wires.push(new GrpcWire(entry.url, http));
  }
  return wires.sort(
    (a, b) => (a.binding === 'JSONRPC' ? -1 : 0) - (b.binding === 'JSONRPC' ? -1 : 0),
  );
}
