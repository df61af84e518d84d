/**
 * Reads a tool call's argument string as a model sent it: empty text is `{}`, JSON is parsed,
 * anything else is kept as the raw text, so the tool layer can report the bad input to the agent.
 * Shared by the AI SDK adapter and the lean OpenAI-compatible client so both paths agree.
 */
export function parseToolInput(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    // Model output is untrusted: never throw on it here.
    return input;
  }
}
