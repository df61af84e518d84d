import { lazyTemplate, loadPromptTemplate, type PromptTemplate, promptTemplatePath } from '../../../prompts/index.js';
import type { Message } from '../../../spec/message.js';
import type { PacPolicyType } from '../scenario-schema.js';
import type { PacGeneratedMemory, PacScenarioDraft } from './stage-schemas.js';

function template(name: string): PromptTemplate {
  return lazyTemplate(() =>
    loadPromptTemplate({ path: promptTemplatePath(import.meta.url, `./prompts/${name}`), sectioned: true }),
  );
}

/** The four stage prompts (`prompts/pac-gen-*.v1.md`, copied to dist with the other assets). */
export const PAC_GENERATION_TEMPLATES = {
  scenario: template('pac-gen-scenario.v1.md'),
  requirements: template('pac-gen-requirements.v1.md'),
  memory: template('pac-gen-memory.v1.md'),
  constraint: template('pac-gen-constraint.v1.md'),
} as const;

/** `<id>@v<version>` → SHA-256 of every stage prompt: a journal resumes only with the same wording. */
export function pacGenerationPromptVersions(): Record<string, string> {
  return Object.fromEntries(
    Object.values(PAC_GENERATION_TEMPLATES).map((entry) => [`${entry.id}@v${entry.version}`, entry.sha256]),
  );
}

/** `agent_b` → `Agent B`. */
export function agentKey(index: number): string {
  return `agent_${String.fromCharCode(97 + index)}`;
}

/** The name prompts give the agent at `index`. */
export function agentName(index: number): string {
  return `Agent ${String.fromCharCode(65 + index)}`;
}

function render(
  entry: PromptTemplate,
  slots: Record<string, string>,
  feedback: readonly string[] | undefined,
): Message[] {
  let user = entry.fill(entry.part('task'), slots);
  if (feedback !== undefined && feedback.length > 0) {
    user += `\n\n${entry.fill(entry.part('feedback'), { issues: bullets(feedback) })}`;
  }
  return [
    { role: 'system', content: entry.part('system') },
    { role: 'user', content: user },
  ];
}

function bullets(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join('\n');
}

function profiles(scenario: PacScenarioDraft): string {
  return scenario.agents
    .map((agent, index) => `- ${agentName(index)}: ${agent.organization} (expertise: ${agent.expertise})`)
    .join('\n');
}

function numbered(requirements: readonly string[]): string {
  return requirements.map((requirement, index) => `${index}: ${requirement}`).join('\n');
}

function memoryList(memories: readonly PacGeneratedMemory[]): string {
  return memories
    .map((memory, index) => `[${index}] serves requirements ${memory.requirements_index.join(', ')}\n${memory.content}`)
    .join('\n\n');
}

/** Stage 1 prompt: `count` scenarios for one domain, distinct from `existing`. */
export function scenarioPrompt({
  domain,
  count,
  agentCount,
  policyType,
  existing,
  feedback,
}: {
  domain: string;
  count: number;
  agentCount: number;
  policyType: PacPolicyType;
  existing: readonly PacScenarioDraft[];
  feedback?: readonly string[];
}): Message[] {
  const entry = PAC_GENERATION_TEMPLATES.scenario;
  return render(
    entry,
    {
      domain,
      count: String(count),
      agentCount: String(agentCount),
      typeHint: entry.part(`hint:${policyType}`),
      existing:
        existing.length === 0
          ? '(none yet)'
          : bullets(existing.map((draft) => `${draft.collaboration_structure}: ${draft.goal}`)),
    },
    feedback,
  );
}

/** Stage 2 prompt: the requirements of one scenario. */
export function requirementsPrompt({
  domain,
  scenario,
  count,
  feedback,
}: {
  domain: string;
  scenario: PacScenarioDraft;
  count: number;
  feedback?: readonly string[];
}): Message[] {
  return render(
    PAC_GENERATION_TEMPLATES.requirements,
    {
      domain,
      count: String(count),
      description: scenario.description,
      goal: scenario.goal,
      toolCategory: scenario.tool_category,
      profiles: profiles(scenario),
    },
    feedback,
  );
}

/** Stage 3 prompt: the memories of the agent at `agentIndex`, seeing the earlier agents' memories. */
export function memoryPrompt({
  domain,
  scenario,
  requirements,
  agentIndex,
  earlierMemories,
  feedback,
}: {
  domain: string;
  scenario: PacScenarioDraft;
  requirements: readonly string[];
  agentIndex: number;
  /** Accepted memories of the agents before this one, in seat order. */
  earlierMemories: ReadonlyArray<readonly PacGeneratedMemory[]>;
  feedback?: readonly string[];
}): Message[] {
  const profile = scenario.agents[agentIndex];
  const partners = scenario.agents
    .map((agent, index) => ({ agent, index }))
    .filter(({ index }) => index !== agentIndex)
    .map(({ agent, index }) => `- ${agentName(index)}: ${agent.organization} (expertise: ${agent.expertise})`);
  const held = earlierMemories
    .map((memories, index) => (memories.length === 0 ? '' : `${agentName(index)}:\n${memoryList(memories)}`))
    .filter((text) => text !== '');
  return render(
    PAC_GENERATION_TEMPLATES.memory,
    {
      domain,
      agentName: agentName(agentIndex),
      agentKey: agentKey(agentIndex),
      description: scenario.description,
      goal: scenario.goal,
      requirements: numbered(requirements),
      profile: `Organization: ${profile?.organization ?? ''}\nExpertise: ${profile?.expertise ?? ''}`,
      partners: partners.join('\n'),
      partnerMemories: held.length === 0 ? '(none yet)' : held.join('\n\n'),
    },
    feedback,
  );
}

/** Stage 4 prompt: the constraint of the agent at `agentIndex`, of the given type. */
export function constraintPrompt({
  domain,
  scenario,
  requirements,
  agentIndex,
  memories,
  policyType,
  feedback,
}: {
  domain: string;
  scenario: PacScenarioDraft;
  requirements: readonly string[];
  agentIndex: number;
  memories: readonly PacGeneratedMemory[];
  policyType: PacPolicyType;
  feedback?: readonly string[];
}): Message[] {
  const entry = PAC_GENERATION_TEMPLATES.constraint;
  const profile = scenario.agents[agentIndex];
  return render(
    entry,
    {
      domain,
      agentName: agentName(agentIndex),
      agentKey: agentKey(agentIndex),
      policyType,
      goal: scenario.goal,
      requirements: numbered(requirements),
      profile: `Organization: ${profile?.organization ?? ''}\nExpertise: ${profile?.expertise ?? ''}`,
      memories: memoryList(memories),
      typeRule: entry.part(`type:${policyType}`),
    },
    feedback,
  );
}
