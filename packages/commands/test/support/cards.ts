import type { AgentCapabilities, AgentCard } from '@a2a-js/sdk';

export type Binding = 'JSONRPC' | 'HTTP+JSON';

/** A minimal card that declares exactly the given bindings. */
export function cardWith(
  baseUrl: string,
  bindings: Binding[],
  capabilities: Partial<AgentCapabilities> = {},
): AgentCard {
  const path = { JSONRPC: '/a2a/jsonrpc', 'HTTP+JSON': '/a2a/rest' } as const;
  return {
    name: 'adopter',
    description: 'an adopting agent',
    version: '1.0.0',
    supportedInterfaces: bindings.map((protocolBinding) => ({
      url: `${baseUrl}${path[protocolBinding]}`,
      protocolBinding,
      tenant: '',
      protocolVersion: '1.0',
    })),
    capabilities: { streaming: true, extensions: [], ...capabilities },
    provider: undefined,
    skills: [],
    signatures: [],
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
  };
}
