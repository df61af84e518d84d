import { EmptyReplyError } from '../../agents/turn-errors.js';
import { loadRoleTemplate } from '../../orchestration/index.js';
import { lazyTemplate } from '../../prompts/index.js';
import type { BoundModel } from '../../spec/chat-model.js';
import type { Message } from '../../spec/message.js';
import type { Participant } from '../../spec/participant.js';
import type { ProbeInstance, ProbeStrategy } from './expand-conversations.js';
import { nameOf, type PrivacyBenchWorld, secretOf } from './privacybench-world.js';
import { ownerToProberPhrase } from './relationship-phrases.js';

/** The participant id the prober's events carry. */
export const PROBER_ID = 'prober';

/** The prober's versioned prompt files: the system prompt and one strategy block per strategy. */
export const PROBER_TEMPLATES = {
  system: lazyTemplate(() => loadRoleTemplate(import.meta.url, 'prompts/privacybench-prober.v1.md')),
  direct: lazyTemplate(() => loadRoleTemplate(import.meta.url, 'prompts/privacybench-prober-direct.v1.md')),
  indirect: lazyTemplate(() => loadRoleTemplate(import.meta.url, 'prompts/privacybench-prober-indirect.v1.md')),
} as const satisfies Record<'system' | ProbeStrategy, unknown>;

/** The user turn that asks the prober to open the chat. */
export function openingCue(ownerName: string): string {
  return `(The chat is empty. Write your first message to ${ownerName}.)`;
}

/**
 * The prober's system prompt (privacybench.md §5): who it plays (the prober's name and persona),
 * what the owner is to it at the conversation time, the topic (only the secret's `probeHint`:
 * never its content or core components), the strategy, and the rules.
 */
export function proberSystemPrompt({ world, instance }: { world: PrivacyBenchWorld; instance: ProbeInstance }): string {
  const prober = world.users.get(instance.proberId);
  const ownerName = nameOf({ world, userId: instance.ownerId });
  const strategyTemplate = PROBER_TEMPLATES[instance.strategy];
  const strategy = strategyTemplate.render(strategyTemplate.body, { owner_name: ownerName });
  const system = PROBER_TEMPLATES.system;
  return system.render(system.body, {
    prober_name: prober?.name ?? instance.proberId,
    prober_persona: prober?.persona ?? '',
    owner_name: ownerName,
    relationship: ownerToProberPhrase({ world, instance }),
    topic: secretOf({ world, secretId: instance.secretId }).probeHint,
    strategy,
  });
}

/** The prober's own view of the chat: its messages as `assistant`, the owner's as `user`. */
export type ProberState = { history: Message[] };

/**
 * Cleans a prober reply (reasoning already out, by the model middleware) into one chat message: surrounding quotes and a
 * leading `<prober name>:` dropped. An empty result is an `EmptyReplyError`.
 */
export function proberMessage({ text, proberName }: { text: string; proberName: string }): string {
  let message = text.trim();
  const prefix = `${proberName}:`;
  if (message.toLowerCase().startsWith(prefix.toLowerCase())) message = message.slice(prefix.length).trim();
  const quoted = /^"([\s\S]*)"$/.exec(message);
  if (quoted?.[1] !== undefined && !quoted[1].includes('"')) message = quoted[1].trim();
  if (message === '') throw new EmptyReplyError("the prober's message was empty");
  return message;
}

/**
 * The prober as a `Participant` (the `prober` role, privacybench.md §5). Each turn it receives
 * the owner's latest reply (nothing on its first turn, when it opens the chat) and writes one
 * message; its state is the chat from its side, so every call sees the whole conversation.
 */
export function createProber({
  world,
  instance,
  model,
  signal,
}: {
  world: PrivacyBenchWorld;
  instance: ProbeInstance;
  model: BoundModel;
  signal?: AbortSignal;
}): Participant<ProberState> {
  const system = proberSystemPrompt({ world, instance });
  const proberName = nameOf({ world, userId: instance.proberId });
  const opening = openingCue(nameOf({ world, userId: instance.ownerId }));
  return {
    id: PROBER_ID,
    initialState: () => ({ history: [] }),
    async respond({ inbox, state }) {
      const incoming = inbox.map((message): Message => ({ role: 'user', content: message.content }));
      const history = [...state.history, ...incoming];
      const messages: Message[] = [{ role: 'system', content: system }, { role: 'user', content: opening }, ...history];
      const result = await model.generate({
        messages,
        settings: {},
        ...(signal === undefined ? {} : { abortSignal: signal }),
      });
      const text = proberMessage({ text: result.text, proberName });
      return {
        reply: { role: 'assistant', content: text },
        state: { history: [...history, { role: 'assistant', content: text }] },
      };
    },
  };
}
