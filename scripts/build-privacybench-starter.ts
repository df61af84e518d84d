// Rebuilds the committed PrivacyBench starter community from our templates and the fixed seed:
//   npx tsx scripts/build-privacybench-starter.ts
// then formats community.json with Biome (the project's formatter), as the lint step expects.
// A test (src/suites/privacybench/build-starter-community.test.ts) checks the committed files
// equal this output and validate cleanly.
import { execFileSync } from 'node:child_process';
import { buildStarterCommunity } from '../src/suites/privacybench/build-starter-community.js';
import { checkCommunity } from '../src/suites/privacybench/check-community.js';
import { formatCommunityIssue } from '../src/suites/privacybench/community-issue.js';
import { STARTER_COMMUNITY_DIR } from '../src/suites/privacybench/starter-community.js';
import { writeCommunityFiles } from '../src/suites/privacybench/write-community.js';

const starter = buildStarterCommunity();
const issues = checkCommunity(starter);
if (issues.length > 0) {
  console.error(issues.map(formatCommunityIssue).join('\n'));
  process.exit(1);
}
const { communityPath, documentsPath } = await writeCommunityFiles({ dir: STARTER_COMMUNITY_DIR, ...starter });
execFileSync('npx', ['biome', 'format', '--write', communityPath], { stdio: 'inherit' });
console.log(`wrote ${communityPath} and ${documentsPath} (${starter.documents.length} documents)`);
