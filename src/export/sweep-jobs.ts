import { stringify as stringifyYaml } from 'yaml';
import { shellWord } from '../spec/shell-word.js';

/** What every job definition needs: where the sweep file and directory are, and how many shards. */
export type SweepJobInput = {
  /** The sweep's name (job names are derived from it). */
  name: string;
  /** The sweep file, as the job's working directory sees it. */
  file: string;
  /** The shared sweep directory, as the job's working directory sees it. */
  dir: string;
  shards: number;
  /** How the job calls confidant (default `npx confidant`). */
  command?: string;
  /** Container image (Kubernetes only; default `node:20`). */
  image?: string;
  /** PersistentVolumeClaim holding the project and the sweep directory (Kubernetes only). */
  volumeClaim?: string;
};

/** One engine's job definition: a file name suggestion and its text. */
export type SweepJobFile = { fileName: string; text: string };

/** A job definition writer for one engine. */
export type SweepJobEmitter = { id: string; description: string; emit: (input: SweepJobInput) => SweepJobFile };

const jobName = (name: string) =>
  `confidant-${
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'sweep'
  }`;

const cli = (input: SweepJobInput) => input.command ?? 'npx confidant';

/** `sweep run` of shard `shard` (a shell expression that yields the 1-based index). */
const runLine = (input: SweepJobInput, shard: string) =>
  `${cli(input)} sweep run ${shellWord(input.file)} --out ${shellWord(input.dir)} --shard "${shard}/${input.shards}"`;

const mergeLine = (input: SweepJobInput) => `${cli(input)} sweep merge ${shellWord(input.dir)}`;

const shell: SweepJobEmitter = {
  id: 'shell',
  description: 'a POSIX shell script: every shard as a local background process, then the merge',
  emit: (input) => ({
    fileName: `${jobName(input.name)}.sh`,
    text: [
      '#!/bin/sh',
      `# confidant sweep ${input.name}: ${input.shards} shards as local processes, then one merge.`,
      '# Re-running the script after a crash does only the missing work.',
      'set -u',
      `mkdir -p ${shellWord(`${input.dir}/logs`)}`,
      'pids=""',
      'i=1',
      `while [ "$i" -le ${input.shards} ]; do`,
      `  ${runLine(input, '$i')} > ${shellWord(`${input.dir}/logs`)}/shard-"$i".log 2>&1 &`,
      '  pids="$pids $!"',
      '  i=$((i + 1))',
      'done',
      'status=0',
      'for pid in $pids; do wait "$pid" || status=1; done',
      `[ "$status" -eq 0 ] || echo "a shard failed: see ${input.dir}/logs; the merge keeps what the shards wrote" >&2`,
      `${mergeLine(input)} || status=1`,
      'exit "$status"',
      '',
    ].join('\n'),
  }),
};

const slurm: SweepJobEmitter = {
  id: 'slurm',
  description: 'a Slurm job array script (sbatch), one array task per shard',
  emit: (input) => ({
    fileName: `${jobName(input.name)}.sbatch`,
    text: [
      '#!/bin/bash',
      `#SBATCH --job-name=${jobName(input.name)}`,
      `#SBATCH --array=1-${input.shards}`,
      `#SBATCH --output=${input.dir}/logs/slurm-%A_%a.out`,
      '#SBATCH --cpus-per-task=2',
      '#SBATCH --requeue',
      `# Submit: mkdir -p ${shellWord(`${input.dir}/logs`)} && jobid=$(sbatch --parsable ${jobName(input.name)}.sbatch)`,
      `# Merge when every task ended: sbatch --dependency=afterany:$jobid --wrap ${shellWord(mergeLine(input))}`,
      '# A requeued or re-submitted task resumes its shard; finished samples are never run twice.',
      'set -euo pipefail',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, expanded by Slurm's bash
      runLine(input, '${SLURM_ARRAY_TASK_ID}'),
      '',
    ].join('\n'),
  }),
};

const kubernetes: SweepJobEmitter = {
  id: 'k8s',
  description: 'a Kubernetes Indexed Job manifest, one completion index per shard',
  emit: (input) => ({
    fileName: `${jobName(input.name)}.yaml`,
    text: `# confidant sweep ${input.name}: kubectl apply -f this file; when it completes, run\n# ${mergeLine(input)} in a pod that mounts the same volume.\n${stringifyYaml(
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: jobName(input.name) },
        spec: {
          completionMode: 'Indexed',
          completions: input.shards,
          parallelism: input.shards,
          backoffLimitPerIndex: 3,
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [
                {
                  name: 'confidant',
                  image: input.image ?? 'node:20',
                  workingDir: '/work',
                  command: ['sh', '-c', runLine(input, '$((JOB_COMPLETION_INDEX + 1))')],
                  volumeMounts: [{ name: 'work', mountPath: '/work' }],
                },
              ],
              volumes: [{ name: 'work', persistentVolumeClaim: { claimName: input.volumeClaim ?? 'confidant-work' } }],
            },
          },
        },
      },
      { lineWidth: 0 },
    )}`,
  }),
};

const githubActions: SweepJobEmitter = {
  id: 'github-actions',
  description: 'a GitHub Actions workflow: a matrix job per shard, then a merge job that reports',
  emit: (input) => {
    const setup = [
      { uses: 'actions/checkout@v4' },
      { uses: 'actions/setup-node@v4', with: { 'node-version': 20 } },
      { run: 'npm ci' },
    ];
    const workflow = {
      name: `confidant sweep ${input.name}`,
      on: { workflow_dispatch: null },
      jobs: {
        shard: {
          'runs-on': 'ubuntu-latest',
          strategy: {
            'fail-fast': false,
            matrix: { shard: Array.from({ length: input.shards }, (_, index) => index + 1) },
          },
          steps: [
            ...setup,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression
            { run: runLine(input, '${{ matrix.shard }}') },
            {
              if: 'always()',
              uses: 'actions/upload-artifact@v4',
              // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression
              with: { name: 'sweep-shard-${{ matrix.shard }}', path: input.dir, 'include-hidden-files': true },
            },
          ],
        },
        merge: {
          needs: 'shard',
          if: 'always()',
          'runs-on': 'ubuntu-latest',
          steps: [
            ...setup,
            {
              uses: 'actions/download-artifact@v4',
              with: { pattern: 'sweep-shard-*', path: input.dir, 'merge-multiple': true },
            },
            { run: mergeLine(input) },
            { run: `${cli(input)} sweep report ${shellWord(input.dir)} --format md >> "$GITHUB_STEP_SUMMARY"` },
            {
              uses: 'actions/upload-artifact@v4',
              with: { name: 'sweep', path: input.dir, 'include-hidden-files': true },
            },
          ],
        },
      },
    };
    return { fileName: `${jobName(input.name)}.yml`, text: stringifyYaml(workflow, { lineWidth: 0 }) };
  },
};

/** The job definitions `confidant sweep plan --emit` writes, by engine id. */
export const sweepJobEmitters: readonly SweepJobEmitter[] = [shell, slurm, kubernetes, githubActions];
