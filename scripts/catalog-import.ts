/**
 * npm run catalog:import -- <ficheiro.csv|.jsonl> --kind <tipo>
 *
 * Loads an operator's own catalog into the database the API uses (DATABASE_URL, or the embedded
 * one under DATA_DIR). Every row is validated first; with any bad row nothing is written and the
 * problems are listed with their line numbers (exit code 1). Rows are upserted by id (lists: by
 * code), so importing the same file again is harmless.
 *
 * CSV: a header row; labels in name_pt … name_it columns; engine codes separated by "|".
 * JSON Lines: one object per line, the same fields, or `names: {pt, …}` and `engine_codes: [...]`.
 */
import { importCatalogFile } from '../src/catalog/import/import-catalog.js';
import { IMPORT_KINDS } from '../src/catalog/import/import-kinds.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { phaseBars } from '../src/demo/progress-bars.js';
import { operatorCommand, parseCommandLine, runOperatorCommand } from '../src/operator-command.js';

const MAX_LISTED_ERRORS = 50;

const program = operatorCommand(
  'catalog:import',
  'Importa um catálogo (CSV ou JSON Lines) com validação linha a linha.',
)
  .argument('<ficheiro>', 'ficheiro .csv, .jsonl ou .ndjson')
  .requiredOption('--kind <tipo>', `tipo de catálogo: ${IMPORT_KINDS.join(', ')}`);

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const [file] = program.args as [string];
  const { kind } = program.opts<{ kind: string }>();
  const config = loadConfig(process.env);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrate(database.db);
    const bars = phaseBars();
    const outcome = await importCatalogFile(database.db, file, kind, (done, total) =>
      bars.onProgress(`Importação (${kind})`, done, total),
    );
    bars.finish();
    if (!outcome.errors.length) {
      process.stdout.write(
        `Importados ${outcome.imported} registos (${kind}) em ${outcome.seconds.toFixed(1)} s\n`,
      );
      return 0;
    }
    process.stderr.write(`Nada foi importado: ${outcome.errors.length} linha(s) com problemas em ${file}\n`);
    for (const e of outcome.errors.slice(0, MAX_LISTED_ERRORS))
      process.stderr.write(`  linha ${e.line}: ${e.message}\n`);
    if (outcome.errors.length > MAX_LISTED_ERRORS)
      process.stderr.write(`  … e mais ${outcome.errors.length - MAX_LISTED_ERRORS}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

await runOperatorCommand(main);
