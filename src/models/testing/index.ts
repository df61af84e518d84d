/** Test helpers published as `confidant/testing`: a scripted model for offline tests. */
export {
  estimateTokens,
  MockChatModel,
  type MockChatModelOptions,
  type MockScript,
  type MockStep,
  type MockUsage,
  textResult,
} from './mock-chat-model.js';
