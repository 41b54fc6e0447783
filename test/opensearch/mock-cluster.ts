import { Client, errors } from '@opensearch-project/opensearch';
import MockModule, { type MockPattern } from '@short.io/opensearch-mock';

type MockClass = (typeof MockModule)['default'];
/**
 * The package is CommonJS (`module.exports = Mocker`) but its types declare an ES default export,
 * which NodeNext reads as `module.default`: at run time the import is the class itself.
 */
export const ClusterMock = MockModule as unknown as MockClass;
export type ClusterMock = InstanceType<MockClass>;

/** What the engine or the indexer sent: parsed JSON, or the lines of an NDJSON bulk body. */
export type MockRequest = MockPattern;

/** A client whose transport is the mock; no retries, so a failure shows at once. */
export function mockClient(mock: ClusterMock): Client {
  return new Client({ node: 'http://opensearch.test:9200', Connection: mock.getConnection(), maxRetries: 0 });
}

/**
 * A bulk endpoint that applies external versions as a cluster does (a write wins only over a
 * lower version; otherwise 409) and records every request's lines. `failures` makes the next
 * that many bulk requests fail as if the cluster were unreachable.
 */
export class VersionedBulkCluster {
  /** id → version of what the cluster holds */
  readonly versions = new Map<string, number>();
  readonly bulks: Record<string, unknown>[][] = [];
  failures = 0;

  constructor(mock: ClusterMock) {
    mock.add({ method: 'POST', path: '/_bulk' }, (params: MockRequest) => {
      if (this.failures > 0) {
        this.failures--;
        return new errors.ConnectionError('connect ECONNREFUSED');
      }
      const lines = params.body as unknown as Record<string, { _id: string; version: number }>[];
      this.bulks.push(lines);
      const items = [];
      for (let i = 0; i < lines.length; i++) {
        const [action, meta] = Object.entries(lines[i]!)[0]!;
        const current = this.versions.get(meta._id) ?? 0;
        const status = meta.version > current ? (action === 'delete' ? 200 : 201) : 409;
        if (status !== 409) this.versions.set(meta._id, meta.version);
        items.push({ [action]: { _index: 'stock_v1', _id: meta._id, status } });
        if (action === 'index') i++;
      }
      return { took: 1, errors: items.some((x) => Object.values(x)[0]!.status === 409), items };
    });
  }

  /** The ids of the documents written by index actions, over every recorded request. */
  indexedIds(): string[] {
    return this.bulks.flatMap((lines) =>
      lines.flatMap((l) => ('index' in l ? [(l.index as { _id: string })._id] : [])),
    );
  }
}
