import { readFileSync } from 'node:fs';
import type { Client, API } from '@opensearch-project/opensearch';

// indexer/../mappings under tsx, dist/indexer/../mappings in the image (the Dockerfile copies it).
const MAPPING_FILE = new URL('../mappings/stock.json', import.meta.url);

/** Settings and mappings of a stock index (mappings/stock.json). */
export function stockIndexDefinition(): API.Indices_Create_RequestBody {
  return JSON.parse(readFileSync(MAPPING_FILE, 'utf8')) as API.Indices_Create_RequestBody;
}

/** The mapping's own version (`_meta.mapping_version` in mappings/stock.json). */
export function mappingVersion(): number {
  const meta = (stockIndexDefinition().mappings as { _meta?: { mapping_version?: number } })._meta;
  return meta?.mapping_version ?? 1;
}

/**
 * The mapping version of the index behind the alias: null without one, 1 for an index built before
 * mappings carried a version. An index older than mappings/stock.json is rebuilt by the indexer.
 */
export async function liveMappingVersion(client: Client, alias: string): Promise<number | null> {
  const targets = await aliasTargets(client, alias);
  if (targets.length === 0) return null;
  const answer = await client.indices.getMapping({ index: targets[0]! });
  const mappings = Object.values(answer.body)[0]?.mappings as { _meta?: { mapping_version?: number } };
  return mappings?._meta?.mapping_version ?? 1;
}

/**
 * Adds to the live index behind the alias the fields of mappings/stock.json it lacks (a new field
 * is a change an index takes in place), keeping its mapping version: until the rebuild of an older
 * mapping moves the alias, the live index accepts the documents the indexer now writes, where its
 * strict mapping would refuse each one carrying the new field and every change would wait for the
 * swap. Fields whose definition changed are left to the rebuild. Returns the names added.
 */
export async function addMissingFields(client: Client, alias: string): Promise<string[]> {
  const wanted = (stockIndexDefinition().mappings as { properties: Record<string, unknown> }).properties;
  const added = new Set<string>();
  for (const index of await aliasTargets(client, alias)) {
    const answer = await client.indices.getMapping({ index });
    const live =
      (Object.values(answer.body)[0]?.mappings as { properties?: Record<string, unknown> }).properties ?? {};
    const missing = Object.fromEntries(Object.entries(wanted).filter(([name]) => !(name in live)));
    if (Object.keys(missing).length === 0) continue;
    await client.indices.putMapping({
      index,
      body: { properties: missing } as API.Indices_PutMapping_RequestBody,
    });
    for (const name of Object.keys(missing)) added.add(name);
  }
  return [...added];
}

/** The indices the alias points to now (empty when it does not exist yet). */
export async function aliasTargets(client: Client, alias: string): Promise<string[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists.body) return [];
  const answer = await client.indices.getAlias({ name: alias });
  return Object.keys(answer.body);
}

/** The versioned indices of an alias that exist (alias_v1, alias_v2, …), live or not. */
export async function versionedIndices(client: Client, alias: string): Promise<string[]> {
  const answer = await client.cat.indices({ index: `${alias}_v*`, format: 'json' });
  const rows = answer.body as unknown as { index?: string }[];
  const own = new RegExp(`^${alias}_v\\d+$`);
  return rows.map((r) => r.index ?? '').filter((name) => own.test(name));
}

/** The next versioned name: alias_v1, alias_v2, … after the highest existing one. */
export async function nextIndexName(client: Client, alias: string): Promise<string> {
  const versions = (await versionedIndices(client, alias)).map((name) => Number(/_v(\d+)$/.exec(name)![1]));
  return `${alias}_v${Math.max(0, ...versions) + 1}`;
}

/**
 * A new index tuned for a bulk load: no refreshes, no replicas, the translog synced in the
 * background rather than on every bulk request, and no merges before the force-merge (all restored
 * by finishLoad). A node that fails during the load loses nothing that matters: the rebuild fails,
 * deletes the index and starts again.
 */
export async function createLoadingIndex(
  client: Client,
  name: string,
  /** primary shards (OPENSEARCH_SHARDS); the mapping file's when null */
  shards: number | null = null,
): Promise<void> {
  const definition = stockIndexDefinition();
  const settings = {
    ...definition.settings,
    ...(shards === null ? {} : { number_of_shards: shards }),
    refresh_interval: '-1',
    number_of_replicas: 0,
    'translog.durability': 'async' as const,
    'merge.policy.segments_per_tier': LOADING_SEGMENTS_PER_TIER,
  };
  await client.indices.create({ index: name, body: { ...definition, settings } });
}

/**
 * Segments a loading index may gather in a tier before it merges them: enough that a load of
 * millions merges nothing until the force-merge at its end (finishLoad). Merges during the load
 * rewrite documents the force-merge rewrites again, and one still running when the load ends holds
 * the force-merge back.
 */
const LOADING_SEGMENTS_PER_TIER = 100;

/** How long a loaded index may take to get every copy of its shards before the rebuild gives up. */
const GREEN_TIMEOUT_MINUTES = 10;

/**
 * A shard's segments are merged into as few as keep each under this size: the merge policy only
 * merges segments under 5 GB (`max_merged_segment`), and a larger one, left out of the merges that
 * later changes need, would keep its deleted documents.
 */
const MERGED_SEGMENT_BYTES = 4 * 1024 ** 3;

/** A force-merge answers when it is over: minutes for millions of documents. */
const MERGE_TIMEOUT_MS = 60 * 60_000;

/**
 * Merges a loaded index's segments (a bulk load leaves each shard in many) before it serves: a
 * search visits every segment, and a replica made afterwards copies the merged ones. Returns the
 * most segments a shard is left with.
 */
export async function mergeLoadedSegments(client: Client, name: string): Promise<number> {
  const stats = await client.indices.stats({ index: name, metric: 'store' });
  const primaryBytes = Number(stats.body.indices?.[name]?.primaries?.store?.size_in_bytes ?? 0);
  const settings = await client.indices.getSettings({ index: name });
  const shards = Number(
    (Object.values(settings.body)[0]?.settings?.index as { number_of_shards?: string } | undefined)
      ?.number_of_shards ?? 1,
  );
  const segments = Math.max(1, Math.ceil(primaryBytes / shards / MERGED_SEGMENT_BYTES));
  await client.indices.forcemerge(
    { index: name, max_num_segments: segments },
    { requestTimeout: MERGE_TIMEOUT_MS },
  );
  return segments;
}

/**
 * The live settings back on a loaded index, and its replicas made before the alias may move to it.
 * The load is flushed and its segments merged first, so a replica copies the primary's few merged
 * segments instead of replaying every operation of its translog; then the index is waited for
 * until every copy is allocated (green), or, on a cluster with too few nodes to hold the replicas
 * (one node), until its primaries are (yellow). A rebuild that times out fails: the old index
 * keeps serving.
 */
export async function finishLoad(client: Client, name: string): Promise<void> {
  const replicas = Number(stockIndexDefinition().settings?.number_of_replicas ?? 1);
  await client.indices.flush({ index: name });
  await mergeLoadedSegments(client, name);
  await client.indices.putSettings({
    index: name,
    body: {
      index: {
        refresh_interval: '1s',
        number_of_replicas: replicas,
        'translog.durability': 'request',
        // the cluster's default merge policy again, for the changes to come
        'merge.policy.segments_per_tier': null,
      },
    },
  });
  await client.indices.refresh({ index: name });
  const dataNodes = (await client.cluster.health()).body.number_of_data_nodes;
  const wanted = dataNodes > replicas ? 'green' : 'yellow';
  // The cluster answers once the copies are there: the request waits as long as it may (a
  // replica of millions of documents takes minutes to copy, past the client's usual timeout).
  const health = await client.cluster.health(
    { index: name, wait_for_status: wanted, timeout: `${GREEN_TIMEOUT_MINUTES}m` },
    { requestTimeout: (GREEN_TIMEOUT_MINUTES + 1) * 60_000 },
  );
  if (health.body.timed_out) {
    throw new Error(
      `index ${name} not ${wanted} after ${GREEN_TIMEOUT_MINUTES} minutes (${health.body.unassigned_shards} shard copies unassigned): the alias stays where it is`,
    );
  }
}

/** Points the alias at `name` in one atomic request; returns the indices it pointed at before. */
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
  return previous;
}

export async function deleteIndices(client: Client, names: string[]): Promise<void> {
  if (names.length) await client.indices.delete({ index: names, ignore_unavailable: true });
}

/** Deletes `name` unless the alias points at it (a build that failed before its swap). */
export async function deleteUnlessLive(client: Client, alias: string, name: string): Promise<boolean> {
  if ((await aliasTargets(client, alias)).includes(name)) return false;
  await client.indices.delete({ index: name, ignore_unavailable: true });
  return true;
}
