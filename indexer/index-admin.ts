import { readFileSync } from 'node:fs';
import type { Client, API } from '@opensearch-project/opensearch';

// indexer/../mappings under tsx, dist/indexer/../mappings in the image (the Dockerfile copies it).
const MAPPING_FILE = new URL('../mappings/stock.json', import.meta.url);

/** Settings and mappings of a stock index (mappings/stock.json). */
export function stockIndexDefinition(): API.Indices_Create_RequestBody {
  return JSON.parse(readFileSync(MAPPING_FILE, 'utf8')) as API.Indices_Create_RequestBody;
}

/** The indices the alias points to now (empty when it does not exist yet). */
export async function aliasTargets(client: Client, alias: string): Promise<string[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists.body) return [];
  const answer = await client.indices.getAlias({ name: alias });
  return Object.keys(answer.body);
}

/** The next versioned name: alias_v1, alias_v2, … after the highest existing one. */
export async function nextIndexName(client: Client, alias: string): Promise<string> {
  const answer = await client.cat.indices({ index: `${alias}_v*`, format: 'json' });
  const rows = answer.body as unknown as { index?: string }[];
  const versions = rows
    .map((r) => Number(/_v(\d+)$/.exec(r.index ?? '')?.[1] ?? 0))
    .filter((v) => Number.isFinite(v));
  return `${alias}_v${Math.max(0, ...versions) + 1}`;
}

/** A new index tuned for a bulk load: no refreshes, no replicas (restored by finishLoad). */
export async function createLoadingIndex(client: Client, name: string): Promise<void> {
  const definition = stockIndexDefinition();
  const settings = { ...definition.settings, refresh_interval: '-1', number_of_replicas: 0 };
  await client.indices.create({ index: name, body: { ...definition, settings } });
}

export async function finishLoad(client: Client, name: string): Promise<void> {
  const replicas = Number(stockIndexDefinition().settings?.number_of_replicas ?? 1);
  await client.indices.putSettings({
    index: name,
    body: { index: { refresh_interval: '1s', number_of_replicas: replicas } },
  });
  await client.indices.refresh({ index: name });
}

/** Points the alias at `name` in one atomic request, then removes the indices it left. */
export async function swapAlias(client: Client, alias: string, name: string): Promise<string[]> {
  const previous = (await aliasTargets(client, alias)).filter((i) => i !== name);
  await client.indices.updateAliases({
    body: {
      actions: [
        ...previous.map((index) => ({ remove: { index, alias } })),
        { add: { index: name, alias, is_write_index: true } },
      ],
    },
  });
  if (previous.length) await client.indices.delete({ index: previous });
  return previous;
}
