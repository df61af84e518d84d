/**
 * Groups `items` by `key`, keeping first-seen order of the keys and input order within each group.
 */
export function groupBy<Item, Key>({
  items,
  key,
}: {
  items: Iterable<Item>;
  key: (item: Item) => Key;
}): Map<Key, Item[]> {
  const groups = new Map<Key, Item[]>();
  for (const item of items) {
    const groupKey = key(item);
    const group = groups.get(groupKey);
    if (group) group.push(item);
    else groups.set(groupKey, [item]);
  }
  return groups;
}
