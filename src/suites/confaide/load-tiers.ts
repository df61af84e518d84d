import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { oneByteStrings } from '../../datasets/one-byte-strings.js';
import { DatasetFormatError } from '../../spec/errors.js';
import type { ConfaideScenario, ConfaideTier } from './confaide-scenario.js';
import { parseMeetingTier, parseRatingTier, parseStoryTier } from './parse-tiers.js';

/** The data files one tier reads, relative to the dataset directory (prompts first). */
export function tierFiles(tier: ConfaideTier): string[] {
  switch (tier) {
    case '1':
      return ['tier_1.txt', 'tier_1_labels.txt'];
    case '2a':
      return ['tier_2a.txt', 'tier_2_labels.txt'];
    case '2b':
      return ['tier_2b.txt', 'tier_2_labels.txt'];
    case '3':
      return ['tier_3.txt', 'tier_3_control.txt'];
    case '4':
      return ['tier_4.txt'];
  }
}

/**
 * Reads and parses one tier from `datasetDir` (`<dataDir>/confaide`). Dropped tier-3/4 blocks are
 * skipped silently here; call the parsers directly to see them. A tier without a single item (a
 * blank file) is a DatasetFormatError: an empty plan would look like a result. The scenarios'
 * texts are stored one byte per character where they can be (`oneByteStrings`): tier 3's file
 * holds a few curly quotes, which would otherwise make every prompt of the run two-byte.
 */
export async function loadConfaideTier({
  datasetDir,
  tier,
}: {
  datasetDir: string;
  tier: ConfaideTier;
}): Promise<ConfaideScenario[]> {
  const scenarios = await parseTier({ datasetDir, tier });
  if (scenarios.length === 0) {
    throw new DatasetFormatError(
      `${tierFiles(tier)[0]} holds no tier-${tier} items (re-download it with \`confidant data pull confaide\`)`,
    );
  }
  return oneByteStrings(scenarios);
}

async function parseTier({
  datasetDir,
  tier,
}: {
  datasetDir: string;
  tier: ConfaideTier;
}): Promise<ConfaideScenario[]> {
  const [file, companion] = tierFiles(tier);
  const read = (name: string) => readFile(join(datasetDir, name), 'utf8');
  if (tier === '3') {
    const [text, controlText] = await Promise.all([read(file!), read(companion!)]);
    return parseStoryTier({ text, controlText, file: file!, controlFile: companion! }).scenarios;
  }
  if (tier === '4') return parseMeetingTier({ text: await read(file!), file: file! }).scenarios;
  const [text, labelsText] = await Promise.all([read(file!), read(companion!)]);
  return parseRatingTier({ tier, text, labelsText, file: file!, labelsFile: companion! });
}
