import type { Participant } from '../../spec/participant.js';
import type { PacScenario } from './scenario-schema.js';

/** What {@link parseAddressLine} read from a reply. */
export type ParsedAddress = {
  /** The reply without its `To:` line (unchanged when it has none). */
  text: string;
  /** The addressed agent ids in seat order; absent means everyone else, empty means nobody. */
  to?: string[];
  /** Names on the `To:` line that match no other agent: they receive nothing (recorded as `unknownRecipients`). */
  unresolved: string[];
};

const ADDRESS_LINE = /^[\s>*_`]*to[\s*_`]*:[\s*_`]*(.*?)[\s*_`]*$/i;
const EVERYONE = new Set(['everyone', 'everybody', 'all', 'all partners', 'everyone else']);

function key(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Reads the addressing line the direct-messaging prompt asks for (`pac-agent-nparty`
 * `guidelines:addressing`): when the first non-empty line of `text` is `To: everyone` or
 * `To: <name>, <name> and <name>`, it is removed and the names (display names or ids, any case,
 * a role in parentheses tolerated) are resolved to the other agents of `scenario`. `everyone` or
 * no `To:` line mean everyone else. A name that is no other agent (misspelt, invented, or the
 * speaker itself) reaches nobody and is listed in `unresolved`: the message goes to the known
 * names only, and to nobody (`to: []`) when none is known, as the prompt promises that only the
 * named partners see it.
 */
export function parseAddressLine({
  text,
  scenario,
  speaker,
}: {
  text: string;
  scenario: PacScenario;
  speaker: string;
}): ParsedAddress {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  const match = first === -1 ? null : ADDRESS_LINE.exec(lines[first] ?? '');
  if (match === null) return { text, unresolved: [] };
  const rest = [...lines.slice(0, first), ...lines.slice(first + 1)];
  while (rest.length > 0 && rest[0]?.trim() === '') rest.shift();
  const body = rest.join('\n');
  const others = scenario.agents.filter((agent) => agent.id !== speaker);
  const names = (match[1] ?? '')
    .split(/,|;|\band\b|&/i)
    .map((name) => name.replace(/\([^)]*\)/g, '').trim())
    .filter((name) => name !== '');
  if (names.length === 0) return { text: body, unresolved: [] };
  const everyone = names.some((name) => EVERYONE.has(key(name)));
  const chosen = new Set<string>();
  const unresolved: string[] = [];
  for (const name of names) {
    const found = others.find((agent) => key(agent.displayName) === key(name) || key(agent.id) === key(name));
    if (EVERYONE.has(key(name))) continue;
    if (found === undefined) unresolved.push(name);
    else chosen.add(found.id);
  }
  const to = others.filter((agent) => chosen.has(agent.id)).map((agent) => agent.id);
  return { text: body, unresolved, ...(everyone || to.length === others.length ? {} : { to }) };
}

/**
 * Wraps a PAC participant of a `direct`-messaging scenario: each reply's `To:` line is read by
 * {@link parseAddressLine}, removed from what is delivered, and turned into the reply's `to`
 * and `unknownRecipients`.
 * Model seats and reference agents go through the same parser, so both follow the prompt's format.
 */
export function addressedParticipant<State>({
  participant,
  scenario,
}: {
  participant: Participant<State>;
  scenario: PacScenario;
}): Participant<State> {
  return {
    id: participant.id,
    initialState: (context) => participant.initialState(context),
    async respond(options) {
      const result = await participant.respond(options);
      const parsed = parseAddressLine({ text: result.reply.content, scenario, speaker: participant.id });
      return {
        ...result,
        reply: { ...result.reply, content: parsed.text },
        ...(parsed.to === undefined ? {} : { to: parsed.to }),
        ...(parsed.unresolved.length === 0 ? {} : { unknownRecipients: parsed.unresolved }),
      };
    },
  };
}
