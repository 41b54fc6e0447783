import { Client } from '@opensearch-project/opensearch';
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
