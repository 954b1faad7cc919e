// Text rendering shared by the commands and `weft mcp`: figures, values, conversations.
export { type ChatMessage, contentText, llmConversation, replyOf, turnMessages } from './conversation.js';
export { formatCount, formatMs, formatTime, latencyOf, totalTokensOf } from './format-figures.js';
export { opNameOf } from './op-name-of.js';
export { cutString, formatValue, type ValueTextOptions } from './value-text.js';
export { formatPlainTable, PLAIN_TABLE } from './plain-table.js';
