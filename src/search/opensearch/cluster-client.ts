import { Client, type ClientOptions } from '@opensearch-project/opensearch';
import { clusterConnection, type ClusterConnection } from '../../config.js';

export interface ClusterClientTuning {
  /** what one attempt may take before the client gives up on it (ms) */
  requestTimeout: number;
  /**
   * the client's own retries of a request on the next node (after a refused or dropped connection,
   * a timeout, a 502/503/504): the API's engine asks for none and moves to the next node itself,
   * within its time budget (ClusterCalls); the indexer and the commands let the client retry
   */
  maxRetries: number;
}

/**
 * The one place a client of the cluster is built: the API's engine, the indexer, `reindex`,
 * `index:verify`, the scripts and the tests all come here, so every one honours the node list, the
 * credentials and the CA of the configuration (`ClusterConnection`, src/config.ts). A string is an
 * OPENSEARCH_URL value (one address or several, comma-separated) without credentials or CA: what
 * the tests and benchmarks give for a cluster of their own.
 *
 * Several nodes: the client sends each request to the next live node in turn (round-robin). A node
 * whose connection fails (or that answers 502/503/504) is put aside and pinged again after 60 s,
 * doubling while it stays down (up to 32 minutes); while every node is aside it tries them anyway.
 *
 * No sniffing. Sniffing would replace the configured addresses with the ones the nodes publish
 * (`_nodes/_all/http`): behind a load balancer or a proxy, in containers (Docker's internal
 * addresses) or with certificates issued for DNS names, those are unreachable from here or fail the
 * certificate's host name check; and a node added to the cluster is then reached through
 * addresses nobody configured. The list is the operator's: name every node a client may use (or
 * a load balancer in front of them), and change it with the cluster.
 */
export function createClusterClient(
  connection: ClusterConnection | string,
  tuning: ClusterClientTuning,
): Client {
  const settings =
    typeof connection === 'string' ? clusterConnection({ OPENSEARCH_URL: connection })! : connection;
  const https = settings.nodes.some((node) => node.startsWith('https:'));
  const options: ClientOptions = {
    nodes: settings.nodes,
    requestTimeout: tuning.requestTimeout,
    maxRetries: tuning.maxRetries,
    nodeSelector: 'round-robin',
    resurrectStrategy: 'ping',
    sniffOnStart: false,
    sniffInterval: false,
    sniffOnConnectionFault: false,
    ...(settings.auth
      ? { auth: { username: settings.auth.username, password: settings.auth.password } }
      : {}),
    ...(https
      ? {
          ssl: {
            // Our CA instead of Node's list of public ones; none set: the public ones.
            ...(settings.ca ? { ca: settings.ca } : {}),
            rejectUnauthorized: settings.rejectUnauthorized,
          },
        }
      : {}),
  };
  return new Client(options);
}

/**
 * What a process logs at start about its connection (English, for the log): a TLS check turned off
 * (OPENSEARCH_TLS_REJECT_UNAUTHORIZED=false is never the default, and never silent), credentials
 * sent in the clear.
 */
export function connectionWarnings(connection: ClusterConnection): string[] {
  const https = connection.nodes.some((node) => node.startsWith('https:'));
  const warnings: string[] = [];
  if (https && !connection.rejectUnauthorized) {
    warnings.push(
      "OPENSEARCH_TLS_REJECT_UNAUTHORIZED=false: the cluster's TLS certificates are not checked (anyone in between can read the credentials and the answers); set OPENSEARCH_CA_FILE instead",
    );
  }
  if (!https && connection.auth) {
    warnings.push('OpenSearch credentials are sent over http:// in the clear: use https:// addresses');
  }
  return warnings;
}
