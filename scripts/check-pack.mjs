// Packs the package with `npm pack`, installs the tarball into an empty temporary project as a
// user would, and checks that the CLI and the library work from there: `npx confidant --help`,
// an offline demo and run (prompt templates and starter data ship), `data pull --from` (the tar
// dependency ships), and an ESM `import { privacyGuard } from '<name>'` plus its `./testing` entry.
//
// It is a separate CI step (`npm run check:pack`, run by .ci/run after `npm test`), not a vitest
// test: installing compiles better-sqlite3 from source (minutes on two cores), which must not slow
// every `npm test`. Dependencies come from the npm cache when they are there (--prefer-offline),
// else from the registry; a failed install is retried once.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, list } from 'tar';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'confidant-pack-'));
const project = join(work, 'project');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let checks = 0;

/** Runs a command; returns its output, or throws with everything it printed. */
function run(command, args, { cwd = project, timeout = 600_000 } = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, CI: '1' } });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(`\`${command} ${args.join(' ')}\` exited ${result.status ?? result.signal}:\n${output}`);
  }
  return { stdout: result.stdout, stderr: result.stderr };
}

function check(label, condition, detail = '') {
  if (!condition) throw new Error(`${label}${detail ? `: ${detail}` : ''}`);
  checks += 1;
  console.log(`ok ${checks} - ${label}`);
}

try {
  run(npm, ['pack', '--pack-destination', work], { cwd: root });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  check('npm pack wrote a tarball', tarball !== undefined);
  const members = [];
  await list({ file: join(work, tarball), onReadEntry: (entry) => members.push(entry.path) });
  check(
    'the tarball ships no tests or fixtures',
    !members.some((member) => /\.test\.|__fixtures__/.test(member)),
    members.filter((member) => /\.test\.|__fixtures__/.test(member)).join(', '),
  );
  for (const asset of [
    'package/dist/cli/main.js',
    // The bundled CLI (scripts/bundle-cli.mjs) that main.js loads.
    'package/dist/cli/bundle/main.js',
    'package/dist/suites/pac/starter/range/Artisan_Bakeries/policy_0.json',
    'package/dist/suites/privacylens/privact-split.json',
    'package/dist/orchestration/prompts/chain-verifier.v1.md',
    'package/README.md',
  ]) {
    check(`the tarball holds ${asset}`, members.includes(asset));
  }

  mkdirSync(project);
  // As a user would: an empty ESM project that approves better-sqlite3's native build.
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'pack-check', private: true, type: 'module', allowScripts: { 'better-sqlite3': true } }, null, 2)}\n`,
  );
  const install = [npm, ['install', join(work, tarball), '--no-audit', '--no-fund', '--prefer-offline']];
  try {
    run(...install, { timeout: 900_000 });
  } catch (error) {
    console.log(`# install failed once, retrying: ${String(error.message).split('\n')[0]}`);
    run(...install, { timeout: 900_000 });
  }
  check(`npm install ${tarball} into an empty project`, true);

  const help = run(npx, ['--no-install', 'confidant', '--help']);
  check('npx confidant --help', help.stdout.includes('Usage: confidant'), help.stdout.slice(0, 200));

  const demo = run(npx, ['--no-install', 'confidant', 'demo', '--out', join(work, 'demo')]);
  check('confidant demo runs offline on the shipped starter data', /Run directories/.test(demo.stdout));

  const toy = run(npx, [
    '--no-install',
    'confidant',
    'run',
    'toy-leak',
    '--model',
    'mock:echo',
    '--out',
    join(work, 'runs'),
  ]);
  const runDir = toy.stdout.trim().split('\n').at(-1);
  const header = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8'));
  check('confidant run toy-leak writes a run', header.plan.suite === 'toy-leak');
  check('the run header names the hoisted dependency versions', typeof header.dependencyVersions.ai === 'string');

  const copy = join(work, 'copy');
  mkdirSync(join(copy, 'confaide'), { recursive: true });
  writeFileSync(join(copy, 'confaide', 'tier_1.txt'), 'not the upstream file\n');
  await create({ file: join(work, 'copy.tar.gz'), cwd: copy, gzip: true }, ['confaide']);
  const refused = spawnSync(
    npx,
    [
      '--no-install',
      'confidant',
      'data',
      'pull',
      'confaide',
      '--from',
      join(work, 'copy.tar.gz'),
      '--data-dir',
      join(work, 'data'),
    ],
    { cwd: project, encoding: 'utf8' },
  );
  check(
    'data pull --from an archive unpacks it and refuses a copy that fails its checksums (exit 2)',
    refused.status === 2 && /tier_1\.txt differs from the catalogue/.test(refused.stderr),
    `${refused.status} ${refused.stderr}`,
  );

  const script = [
    `import { privacyGuard, VERSION } from '${manifest.name}';`,
    `import { MockChatModel } from '${manifest.name}/testing';`,
    `if (typeof privacyGuard !== 'function') throw new Error('privacyGuard is ' + typeof privacyGuard);`,
    `if (typeof MockChatModel !== 'function') throw new Error('MockChatModel is ' + typeof MockChatModel);`,
    `const middleware = privacyGuard({ chain: 'G>V>R', norms: ['Health details stay with the care team.'] });`,
    `if (typeof middleware.wrapGenerate !== 'function') throw new Error('not an AI SDK middleware');`,
    'console.log(VERSION);',
  ].join('\n');
  const imported = run(process.execPath, ['--input-type=module', '-e', script]);
  check(
    `import { privacyGuard } from '${manifest.name}' (and ./testing) in ESM`,
    imported.stdout.trim() === manifest.version,
  );
  console.log(`pack check: all ${checks} checks passed`);
} catch (error) {
  console.log(`not ok - ${error.message}`);
  console.log(`pack check: failed after ${checks} passing checks`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
