import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../../spec/make-directory.js';
import { COMMUNITY_FILES, type Community, type CommunityDocument } from './community-schema.js';

/**
 * The text of a community directory's two files: `community.json` (two-space JSON) and
 * `documents.jsonl` (one document per line, in the order given). Each ends with a newline.
 */
export function renderCommunityFiles({
  community,
  documents,
}: {
  community: Community;
  documents: readonly CommunityDocument[];
}): { communityText: string; documentsText: string } {
  return {
    communityText: `${JSON.stringify(community, null, 2)}\n`,
    documentsText: documents.map((doc) => `${JSON.stringify(doc)}\n`).join(''),
  };
}

/**
 * Writes a community directory (created if needed) and returns the two file paths. The caller
 * validates first (`checkCommunity`); this only serialises.
 */
export async function writeCommunityFiles({
  dir,
  community,
  documents,
}: {
  dir: string;
  community: Community;
  documents: readonly CommunityDocument[];
}): Promise<{ communityPath: string; documentsPath: string }> {
  const { communityText, documentsText } = renderCommunityFiles({ community, documents });
  await makeDirectory(dir);
  const communityPath = join(dir, COMMUNITY_FILES.community);
  const documentsPath = join(dir, COMMUNITY_FILES.documents);
  await writeFile(communityPath, communityText, 'utf8');
  await writeFile(documentsPath, documentsText, 'utf8');
  return { communityPath, documentsPath };
}
