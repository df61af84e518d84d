import { GenerationError } from '../../../generation/index.js';
import { assignDocumentIds } from '../assign-document-ids.js';
import { formatCommunityIssue } from '../community-issue.js';
import type { Community, CommunityDocument } from '../community-schema.js';
import { validateCommunityFiles } from '../load-community.js';
import { renderCommunityFiles } from '../write-community.js';
import type { Draft } from './generation-draft.js';

/**
 * Turns a finished draft into the files' content: documents sorted by time (secret conversations
 * land among the mundane ones; ties keep draft order) and numbered per kind like the starter
 * community (`chat-0001`, `group-0001`, `ai-0001`, `blog-0001`, `purchase-0001`), sharing events
 * pointing at the new ids, and the `generation` record. The result is validated exactly as
 * `loadCommunity` validates files (schemas and rule checks); any issue is a {@link GenerationError}.
 */
export function finalizeCommunity({
  draft,
  datagenModel,
  createdAt,
}: {
  draft: Draft;
  datagenModel: string;
  createdAt: string;
}): { community: Community; documents: CommunityDocument[] } {
  const { documents, rename } = assignDocumentIds(draft.documents);
  const community: Community = {
    ...structuredClone(draft.community),
    generation: {
      datagenModel,
      seed: draft.options.seed,
      parameters: structuredClone(draft.options.parameters),
      createdAt,
    },
  };
  for (const secret of community.secrets) {
    for (const event of secret.sharingEvents) event.docIds = event.docIds.map((docId) => rename.get(docId) ?? docId);
  }
  const { communityText, documentsText } = renderCommunityFiles({ community, documents });
  const { issues } = validateCommunityFiles({ communityText, documentsText });
  if (issues.length > 0) {
    throw new GenerationError(
      `the generated community failed its final validation:\n${issues
        .slice(0, 20)
        .map((issue) => `  ${formatCommunityIssue(issue)}`)
        .join('\n')}`,
    );
  }
  return { community, documents };
}
