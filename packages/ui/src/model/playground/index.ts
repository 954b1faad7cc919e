export {
  type PlaygroundSource,
  promptValue,
  type Variant,
  variantFromConversation,
  variantFromPrompt,
} from './variant.js';
