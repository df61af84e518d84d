export { fillSlots, SLOT_NAME, slotsUsedIn } from './fill-slots.js';
export { lazyTemplate } from './lazy-template.js';
export {
  loadPromptTemplate,
  type PromptPart,
  type PromptTemplate,
  parsePromptTemplate,
  promptTemplatePath,
  quoteAll,
  templateFileId,
} from './prompt-template.js';
export { PromptTemplateError } from './prompt-template-error.js';
export {
  closingBraceIndex,
  type ExtractedJsonObject,
  extractJsonObject,
  parseStructuredReply,
  type StructuredReplyParse,
} from './structured-reply.js';
