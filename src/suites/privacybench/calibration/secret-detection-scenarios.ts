import { DatasetFormatError } from '../../../spec/errors.js';
import { loadCommunity } from '../load-community.js';
import { communityDirOf } from '../privacybench-world.js';
import { loadStarterCommunity } from '../starter-community.js';
import { buildSecretDetectionItems, type SecretDetectionItem } from './secret-detection-items.js';

/** A sample of the `privacybench-calibration` suite: one labelled snippet. */
export type SecretDetectionScenario = { detection: SecretDetectionItem };

/** The labelled snippets (with and without secrets) of the run's community, in a fixed order. */
export async function loadSecretDetectionScenarios({
  options,
}: {
  options: { community: string };
}): Promise<SecretDetectionScenario[]> {
  const dir = communityDirOf(options.community);
  const loaded = dir === null ? await loadStarterCommunity() : await loadCommunity({ dir });
  const items = buildSecretDetectionItems({ community: loaded.community, documents: loaded.documents, seed: 0 });
  if (items.length === 0) {
    throw new DatasetFormatError(
      `${dir === null ? 'the starter community' : `the community in ${dir}`} gives no secret-detection item: no chat message of documents.jsonl is tagged with a secret and none is left untagged to serve as a negative; tag the messages that carry each secret`,
    );
  }
  return items.map((detection) => ({ detection }));
}
