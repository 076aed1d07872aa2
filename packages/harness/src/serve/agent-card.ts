import type { AgentCard } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';

/** The card without its commands; `CommandsCard` adds the extension entry from the registry. */
export function baseAgentCard(
  publicUrl: string,
  name = 'a2a-harness',
  version = '0.1.0',
): AgentCard {
  return {
    name,
    description:
      'An agent harness: ordinary messages reach a model, slash commands run on the harness. Type /help.',
    version,
    provider: undefined,
    // 1.0 first, then the same endpoints for 0.3: the SDK's compat layer serves
    // 0.3 only where the card names a 0.3 interface for the binding.
    supportedInterfaces: duplicateInterfacesForLegacy(
      [
        {
          url: `${publicUrl}${JSONRPC_PATH}`,
          protocolBinding: 'JSONRPC',
          tenant: '',
          protocolVersion: '1.0',
        },
        {
          url: `${publicUrl}${REST_PATH}`,
          protocolBinding: 'HTTP+JSON',
          tenant: '',
          protocolVersion: '1.0',
        },
      ],
      ['JSONRPC', 'HTTP+JSON'],
    ),
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    // Data parts reach the model as JSON text.
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'chat',
        name: 'Chat',
        description: 'Talk with the configured model; the conversation is kept as an A2A task.',
        tags: ['chat'],
        examples: ['Summarise this paragraph', '/model', '/spawn write a haiku'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

/** The card when API keys are on: one HTTP bearer scheme, required for every call but the card. */
export function withBearerAuth(card: AgentCard, schemeName: string): AgentCard {
  return {
    ...card,
    securitySchemes: {
      [schemeName]: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            description:
              'An API key issued by the operator, sent as "Authorization: Bearer <key>".',
            scheme: 'Bearer',
            bearerFormat: '',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [schemeName]: { list: [] } } }],
  };
}

/** The card when the gRPC binding is on: its interface listed after the HTTP ones. */
export function withGrpcInterface(card: AgentCard, url: string): AgentCard {
  return {
    ...card,
    supportedInterfaces: [
      ...card.supportedInterfaces,
      { url, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' },
    ],
  };
}
