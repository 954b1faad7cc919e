export { conversationOf } from './conversation.js';
export type {
  Conversation,
  ConversationFormat,
  Message,
  MessageCall,
  Part,
  ToolDefinition,
} from './message.js';
export { partsOf } from './parts.js';
export { readMessage, readMessages } from './read-message.js';
export { turnMessages } from './turn-messages.js';
