export { startBridge, BRIDGE_NAME, BRIDGE_VERSION, type BridgeOptions } from './bridge.js';
export { availableCommands } from './available-commands.js';
export { promptMessage, type PromptMessage } from './prompt-message.js';
export { REPLY_META_KEY } from './transcript-updates.js';
