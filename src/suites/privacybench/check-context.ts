import type { CommunityIssue, CommunityRule } from './community-issue.js';
import type { Community, CommunityDocument, Group, Secret, User } from './community-schema.js';

/** Lookups and the issue list shared by the community rule checks. */
export type CheckContext = {
  community: Community;
  documents: readonly CommunityDocument[];
  users: ReadonlyMap<string, User>;
  groups: ReadonlyMap<string, Group>;
  secrets: ReadonlyMap<string, Secret>;
  /** Each document id to its first document and that document's index. */
  docs: ReadonlyMap<string, { doc: CommunityDocument; index: number }>;
  /** Ids of documents that exist in the file but failed the schema: references to them are not dangling. */
  invalidDocIds: ReadonlySet<string>;
  issues: CommunityIssue[];
  /** Records an issue in `community.json`. */
  reportCommunity(options: { rule: CommunityRule; path: string; message: string; secretId?: string }): void;
  /** Records an issue in the document at `index`. */
  reportDocument(options: {
    rule: CommunityRule;
    index: number;
    path: string;
    message: string;
    secretId?: string;
  }): void;
};

/** Builds the lookups (first occurrence wins for duplicated ids) and an empty issue list. */
export function createCheckContext({
  community,
  documents,
  lines,
  invalidDocIds,
}: {
  community: Community;
  documents: readonly CommunityDocument[];
  lines?: readonly number[];
  invalidDocIds?: ReadonlySet<string>;
}): CheckContext {
  const issues: CommunityIssue[] = [];
  const docs = new Map<string, { doc: CommunityDocument; index: number }>();
  documents.forEach((doc, index) => {
    if (!docs.has(doc.docId)) docs.set(doc.docId, { doc, index });
  });
  return {
    community,
    documents,
    users: firstById(community.users, (user) => user.userId),
    groups: firstById(community.groups, (group) => group.groupId),
    secrets: firstById(community.secrets, (secret) => secret.secretId),
    docs,
    invalidDocIds: invalidDocIds ?? new Set(),
    issues,
    reportCommunity({ rule, path, message, secretId }) {
      issues.push({ rule, file: 'community.json', path, message, ...(secretId === undefined ? {} : { secretId }) });
    },
    reportDocument({ rule, index, path, message, secretId }) {
      const doc = documents[index];
      issues.push({
        rule,
        file: 'documents.jsonl',
        line: lines?.[index] ?? index + 1,
        ...(doc === undefined ? {} : { docId: doc.docId }),
        ...(secretId === undefined ? {} : { secretId }),
        path,
        message,
      });
    },
  };
}

function firstById<T>(items: readonly T[], idOf: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(idOf(item))) map.set(idOf(item), item);
  return map;
}

/** Every text of a document with its path and tags: messages, AI turns, blog title and body, items. */
export function textsOf(doc: CommunityDocument): Array<{ path: string; text: string; secretIds: string[] }> {
  switch (doc.type) {
    case 'chat':
    case 'group-chat':
      return doc.messages.map((message, index) => ({
        path: `messages[${index}].text`,
        text: message.text,
        secretIds: message.secretIds ?? [],
      }));
    case 'ai-chat':
      return doc.messages.map((message, index) => ({
        path: `messages[${index}].content`,
        text: message.content,
        secretIds: message.secretIds ?? [],
      }));
    case 'blog':
      return [
        { path: 'title', text: doc.title, secretIds: [] },
        { path: 'content', text: doc.content, secretIds: [] },
      ];
    case 'purchase':
      return doc.items.map((item, index) => ({
        path: `items[${index}]`,
        text: `${item.title}\n${item.description}`,
        secretIds: item.secretIds ?? [],
      }));
  }
}
