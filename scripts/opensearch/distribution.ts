/**
 * Fetches the pinned OpenSearch once, with Maven, into .cache/opensearch/<version>/, so later
 * starts need no network. The integ-test zip is the only runnable distribution on Maven Central,
 * but it ships only the transport-netty4 module; mappings/stock.json needs two more, which we add
 * as modules (loaded at start like the built-in ones, no `opensearch-plugin install`).
 * Everything is assembled in a temporary directory beside the cache and renamed into place, so an
 * interrupted download never leaves a half-built distribution behind.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OPENSEARCH_VERSION, cacheRoot, homeDir } from './layout.js';
import { runCommand } from './run-command.js';
import { UserError } from './user-error.js';

/** Pinned so the fetch does not depend on whichever plugin version Maven would pick by default. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const DISTRIBUTION = `org.opensearch.distribution.integ-test-zip:opensearch:${OPENSEARCH_VERSION}:zip`;

interface Module {
  /** Folder under modules/ and the plugin name. */
  name: string;
  artifact: string;
  /** The class extending org.opensearch.plugins.Plugin in the jar (checked with javap). */
  classname: string;
  description: string;
}

const MODULES: Module[] = [
  {
    // pattern_replace, edge_ngram, stop, stemmer (light_portuguese…), asciifolding.
    name: 'analysis-common',
    artifact: `org.opensearch.plugin:analysis-common:${OPENSEARCH_VERSION}:jar`,
    classname: 'org.opensearch.analysis.common.CommonAnalysisPlugin',
    description: 'Adds "built in" analyzers to OpenSearch.',
  },
  {
    // scaled_float.
    name: 'mapper-extras',
    artifact: `org.opensearch.plugin:mapper-extras-client:${OPENSEARCH_VERSION}:jar`,
    classname: 'org.opensearch.index.mapper.MapperExtrasPlugin',
    description: 'Adds advanced field mappers',
  },
];

/** Returns the OpenSearch home, downloading and assembling it first if the cache lacks it. */
export async function ensureDistribution(): Promise<string> {
  // The rename below is the last step, so an existing directory is a complete one.
  if (existsSync(homeDir)) return homeDir;
  await mkdir(cacheRoot, { recursive: true });
  const work = await mkdtemp(join(cacheRoot, '.download-'));
  const removeWork = () => rm(work, { recursive: true, force: true });
  const onSignal = () => void removeWork().finally(() => process.exit(130));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    process.stdout.write(`a descarregar OpenSearch ${OPENSEARCH_VERSION} do Maven Central…\n`);
    await maven('unpack', DISTRIBUTION, work, work);
    const assembled = join(work, `opensearch-${OPENSEARCH_VERSION}`);
    for (const module of MODULES) {
      const dir = join(assembled, 'modules', module.name);
      await maven('copy', module.artifact, dir, work);
      await writeFile(join(dir, 'plugin-descriptor.properties'), descriptor(module));
    }
    await rename(assembled, homeDir).catch((error: NodeJS.ErrnoException) => {
      // Another start assembled it meanwhile: theirs is as good as ours.
      if (!existsSync(homeDir)) throw error;
    });
    return homeDir;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await removeWork();
  }
}

async function maven(
  goal: 'unpack' | 'copy',
  artifact: string,
  outputDirectory: string,
  cwd: string,
): Promise<void> {
  const args = ['-q', '-B', `${DEPENDENCY_PLUGIN}:${goal}`, `-Dartifact=${artifact}`];
  // No pom.xml is needed; running in the work directory keeps Maven from picking one up.
  const { code } = await runCommand('mvn', [...args, `-DoutputDirectory=${outputDirectory}`], cwd);
  if (code === null) {
    throw new UserError(
      `Maven (mvn) não encontrado: é preciso uma vez, para descarregar o OpenSearch ${OPENSEARCH_VERSION}; instale o Maven 3.`,
    );
  }
  if (code !== 0) {
    throw new UserError(
      `Falhou o download de ${artifact} com o Maven: o Maven Central (https://repo1.maven.org/maven2) tem de estar acessível.`,
    );
  }
}

/**
 * Modelled on modules/transport-netty4/plugin-descriptor.properties. Upstream, analysis-common
 * extends lang-painless (for its Painless functions); the zip has no Painless, and without that
 * extension the module only loses those script functions, which the index does not use.
 */
function descriptor(module: Module): string {
  return [
    `description=${module.description}`,
    `version=${OPENSEARCH_VERSION}`,
    `name=${module.name}`,
    `classname=${module.classname}`,
    'java.version=11',
    `opensearch.version=${OPENSEARCH_VERSION}`,
    'custom.foldername=',
    'extended.plugins=',
    'has.native.controller=false',
    '',
  ].join('\n');
}
