import { describe, expect, it } from 'vitest';
import { MissingOptionalDependencyError } from '../spec/errors.js';
import { createLlamaCppChatModel } from './llamacpp-chat-model.js';

// node-llama-cpp is an optional peer that is not installed in this project's test environment,
// so only the absent-peer path is tested; generation needs the package and a GGUF file.
describe('createLlamaCppChatModel without node-llama-cpp', () => {
  it('fails with the install command', async () => {
    const error = await createLlamaCppChatModel({ modelPath: '/models/none.gguf' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MissingOptionalDependencyError);
    expect((error as MissingOptionalDependencyError).message).toBe(
      'llamacpp models need the optional package node-llama-cpp: run `npm install node-llama-cpp@3.21.1`',
    );
    expect((error as MissingOptionalDependencyError).userError).toBe(true);
  });
});
