// The interactive chat's parts, for a program that drives or tests them itself:
// the controller (views, sending, Ctrl+C), the agent watch, the views and the ink app.
// Importing this loads React and ink.
export { AgentWatch, reconnectDelayMs, type AgentWatchTarget } from './agent-watch.js';
export { ChatController } from './controller.js';
export { Header, type HeaderProps } from './components/Header.js';
export { runChat, type ChatOutcome } from './run-chat.js';
export { applyEvent, type Entry } from './transcript.js';
export { HOME, type TaskView } from './views.js';
