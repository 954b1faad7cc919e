export { ConversationView } from './conversation-view.js';
export { LongText, TEXT_PREVIEW_CHARS } from './long-text.js';
export { MessageList } from './message-list.js';
