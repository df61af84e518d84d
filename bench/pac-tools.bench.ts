// PAC tools overhead benchmark: the harness cost of one scripted PAC episode (two agents, 20 turns,
// typical filesystem tool calls, a workspace snapshot after every turn and the final artifact), with
// no model calls, for the in-process tools (`vfs`) and for the spawned official MCP server
// (`mcp-server`, one server per agent per episode, as a run would do).
// CPU counts this process plus, for the MCP server, the server processes (read from /proc before
// they exit). Memory is the peak RSS growth of this process during an episode plus, for the MCP
// server, the peak RSS of its server processes.
// Usage: npm run bench:pac -- [--episodes 20] [--mcp-episodes 5] [--turns 20]
// The last line of output is JSON: {inProcess: {cpuMsPerEpisode, rssMb}, mcpServer: {…}, ratio: {…}}.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FILESYSTEM_TOOLSETS } from '../src/tools/filesystem-tool-schemas.js';
import { Workspace } from '../src/tools/workspace.js';
import { WorkspaceSnapshots } from '../src/tools/workspace-snapshots.js';
import { openWorkspaceTools, type WorkspaceTools, type WorkspaceToolsMode } from '../src/tools/workspace-tools.js';

function flag(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index < 0) return fallback;
  const arg = args[index]!;
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer, got ${raw}`);
  return value;
}

const episodes = flag('episodes', 20);
const mcpEpisodes = flag('mcp-episodes', 5);
const turns = flag('turns', 20);
const clockTicks = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

type Call = { name: string; input: Record<string, unknown> };
type Paths = { own: string; shared: string };

const MEMORY_TABLE = Array.from(
  { length: 12 },
  (_, row) => `| R-${1000 + row} | Client ${row} | 2025-0${(row % 9) + 1}-14 | ${row * 731} | region ${row % 4} |`,
).join('\n');

/** The tool calls of one turn: 2–3 typical calls, varied over a five-turn cycle. */
function script(turn: number, paths: Paths): Call[] {
  const report = `${paths.shared}/deliverable/report.md`;
  switch (turn % 5) {
    case 1:
      return [
        { name: 'list_directory', input: { path: paths.shared } },
        {
          name: 'write_file',
          input: { path: `${paths.own}/notes-${turn}.md`, content: `# Notes ${turn}\n${MEMORY_TABLE}\n` },
        },
        ...(turn === 1 ? [{ name: 'list_allowed_directories', input: {} }] : []),
      ];
    case 2:
      return [
        { name: 'create_directory', input: { path: `${paths.shared}/deliverable` } },
        {
          name: 'write_file',
          input:
            turn === 2
              ? { path: report, content: `# Report\n\n## Summary\nTBD\n<!-- next -->\n` }
              : { path: `${paths.shared}/deliverable/part-${turn}.md`, content: MEMORY_TABLE },
        },
      ];
    case 3:
      return [
        { name: 'read_text_file', input: { path: report } },
        {
          name: 'edit_file',
          input: {
            path: report,
            edits: [{ oldText: '<!-- next -->', newText: `## Section ${turn}\n${MEMORY_TABLE}\n<!-- next -->` }],
            dryRun: true,
          },
        },
        {
          name: 'edit_file',
          input: {
            path: report,
            edits: [{ oldText: '<!-- next -->', newText: `## Section ${turn}\n${MEMORY_TABLE}\n<!-- next -->` }],
          },
        },
      ];
    case 4:
      return [
        { name: 'search_files', input: { path: paths.shared, pattern: '**/*.md' } },
        { name: 'read_multiple_files', input: { paths: [report, `${paths.own}/notes-${turn - 3}.md`] } },
      ];
    default:
      return [
        { name: 'directory_tree', input: { path: paths.shared } },
        {
          name: 'move_file',
          input: { source: `${paths.own}/notes-${turn - 4}.md`, destination: `${paths.own}/archived-${turn}.md` },
        },
        { name: 'read_text_file', input: { path: `${paths.own}/../agent_x/secret.md` } },
      ];
  }
}

function procStats(pid: number): { cpuMs: number; peakRssMb: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpuMs: (ticks * 1000) / clockTicks, peakRssMb: peakKb / 1024 };
  } catch {
    return { cpuMs: 0, peakRssMb: 0 };
  }
}

type EpisodeCost = { cpuMs: number; wallMs: number; rssMb: number; calls: number; errors: number };

async function episode(mode: WorkspaceToolsMode): Promise<EpisodeCost> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
  const tools: WorkspaceTools = await openWorkspaceTools({
    workspace,
    mode,
    namePrefix: 'filesystem_',
    toolNames: FILESYSTEM_TOOLSETS.upstream,
  });
  let calls = 0;
  let errors = 0;
  let children = { cpuMs: 0, peakRssMb: 0 };
  try {
    const allowed = new Map<string, Paths>();
    for (const agentId of workspace.agentIds) {
      const source = tools.sourceFor(agentId);
      await source.listTools();
      const listing = await source.callTool({ name: 'filesystem_list_allowed_directories', input: {} });
      const [own, shared] = listing.content.split('\n').slice(1);
      allowed.set(agentId, { own: own!, shared: shared! });
    }
    const snapshots = new WorkspaceSnapshots({ workspace });
    for (let turn = 1; turn <= turns; turn++) {
      const agentId = turn % 2 === 1 ? 'agent_a' : 'agent_b';
      const source = tools.sourceFor(agentId);
      for (const call of script(turn, allowed.get(agentId)!)) {
        const output = await source.callTool({ name: `filesystem_${call.name}`, input: call.input });
        calls++;
        if (output.isError) errors++;
      }
      snapshots.take({ turn });
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    const artifact = snapshots.finalArtifact();
    if (artifact.files.length === 0) throw new Error('the episode produced no shared files');
    for (const pid of tools.processIds) {
      const stats = procStats(pid);
      children = { cpuMs: children.cpuMs + stats.cpuMs, peakRssMb: children.peakRssMb + stats.peakRssMb };
    }
  } finally {
    await tools.close();
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000 + children.cpuMs,
    wallMs: performance.now() - started,
    rssMb: (peakRss - rssBefore) / 2 ** 20 + children.peakRssMb,
    calls,
    errors,
  };
}

async function measure(mode: WorkspaceToolsMode, count: number) {
  await episode(mode); // warm-up: JIT, module loading, first spawn
  const costs: EpisodeCost[] = [];
  for (let index = 0; index < count; index++) costs.push(await episode(mode));
  const mean = (pick: (cost: EpisodeCost) => number) => costs.reduce((sum, cost) => sum + pick(cost), 0) / count;
  return {
    episodes: count,
    cpuMsPerEpisode: mean((cost) => cost.cpuMs),
    wallMsPerEpisode: mean((cost) => cost.wallMs),
    rssMb: mean((cost) => cost.rssMb),
    callsPerEpisode: mean((cost) => cost.calls),
    errorsPerEpisode: mean((cost) => cost.errors),
  };
}

const inProcess = await measure('vfs', episodes);
const mcpServer = await measure('mcp-server', mcpEpisodes);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

console.log(`PAC tools overhead: 2 agents, ${turns} turns, no model calls (tool set: upstream 10)`);
console.log('mode        episodes  calls/ep  errors/ep  cpu ms/ep  wall ms/ep  rss MB/ep');
for (const [name, row] of [
  ['inProcess', inProcess],
  ['mcpServer', mcpServer],
] as const) {
  console.log(
    `${name.padEnd(11)} ${String(row.episodes).padStart(8)}  ${row.callsPerEpisode.toFixed(0).padStart(8)}  ${row.errorsPerEpisode.toFixed(0).padStart(9)}  ${row.cpuMsPerEpisode.toFixed(1).padStart(9)}  ${row.wallMsPerEpisode.toFixed(1).padStart(10)}  ${row.rssMb.toFixed(1).padStart(9)}`,
  );
}
console.log('mcpServer includes two server processes per episode (start-up, CPU and peak RSS).');
console.log(
  JSON.stringify({
    inProcess: { cpuMsPerEpisode: round(inProcess.cpuMsPerEpisode), rssMb: round(inProcess.rssMb) },
    mcpServer: { cpuMsPerEpisode: round(mcpServer.cpuMsPerEpisode), rssMb: round(mcpServer.rssMb) },
    ratio: {
      cpuMsPerEpisode: round(mcpServer.cpuMsPerEpisode / inProcess.cpuMsPerEpisode, 1),
      rssMb: inProcess.rssMb > 0 ? round(mcpServer.rssMb / inProcess.rssMb, 1) : null,
    },
  }),
);
