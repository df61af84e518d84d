import { Workspace } from '../src/tools/workspace.ts';
import { openWorkspaceTools } from '../src/tools/workspace-tools.ts';
const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
const tools = await openWorkspaceTools({ workspace, mode: 'mcp-server' });
const src = tools.sourceFor('agent_a');
const dirs = await src.callTool({ name: 'list_allowed_directories', input: {} });
const dir = dirs.content.split('\n')[1];
for (const mb of [1, 8, 16]) {
  const t = Date.now();
  try {
    const r = await src.callTool({ name: 'write_file', input: { path: `${dir}/big${mb}.txt`, content: 'x'.repeat(mb * 1024 * 1024) } });
    console.log(mb, r.isError, r.content.slice(0, 200), Date.now() - t);
  } catch (e) { console.log(mb, 'threw', String(e).slice(0, 500)); }
}
const t = Date.now();
await src.callTool({ name: 'write_file', input: { path: `${dir}/small.txt`, content: 'x' } });
console.log('small write', Date.now() - t);
await tools.close();
