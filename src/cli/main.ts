#!/usr/bin/env node
import { startCli } from './start-cli.js';

// The executable entry from the sources (tsx); the build bundles the CLI and starts it through
// bundled-main.ts instead (scripts/bundle-cli.mjs).
await startCli();
