import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Part } from '@a2a-js/sdk';
import { textPart } from 'a2a-commands';

/**
 * What an ACP prompt becomes on the A2A side: the text of its text blocks,
 * joined, when that is all it holds (a command is a message whose only part is
 * its text); otherwise the parts of an ordinary message, one per block.
 */
export type PromptMessage = { kind: 'text'; text: string } | { kind: 'parts'; parts: Part[] };

/** Text blocks are joined on a line break, so `/model` and `x` in two blocks stay a command and its argument. */
const TEXT_JOIN = '\n';

export function promptMessage(blocks: readonly ContentBlock[]): PromptMessage {
  if (blocks.every((block) => block.type === 'text')) {
    return { kind: 'text', text: blocks.map((block) => block.text).join(TEXT_JOIN) };
  }
  return { kind: 'parts', parts: blocks.map(partOf) };
}

function filePart(
  content: Part['content'],
  mediaType: string | null | undefined,
  filename = '',
): Part {
  return {
    content,
    mediaType: mediaType ?? 'application/octet-stream',
    filename,
    metadata: undefined,
  };
}

function bytes(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

function partOf(block: ContentBlock): Part {
  switch (block.type) {
    case 'text':
      return textPart(block.text);
    case 'image':
      return block.uri
        ? filePart({ $case: 'url', value: block.uri }, block.mimeType)
        : filePart({ $case: 'raw', value: bytes(block.data) }, block.mimeType);
    case 'audio':
      return filePart({ $case: 'raw', value: bytes(block.data) }, block.mimeType);
    case 'resource_link':
      return filePart({ $case: 'url', value: block.uri }, block.mimeType, block.name);
    case 'resource': {
      const resource = block.resource;
      const name = resource.uri.split('/').pop() ?? '';
      if ('text' in resource) {
        return filePart(
          { $case: 'text', value: resource.text },
          resource.mimeType ?? 'text/plain',
          name,
        );
      }
      return filePart({ $case: 'raw', value: bytes(resource.blob) }, resource.mimeType, name);
    }
  }
}
