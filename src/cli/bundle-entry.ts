// The entry of the single-file CommonJS bundle of the CLI (dist/cli/bundle/cli.cjs, built by
// scripts/bundle-cli.mjs), which bundled-main.ts compiles through a V8 code cache.
export { heapPolicyApplied } from './heap-policy.js';
export { startCli } from './start-cli.js';
