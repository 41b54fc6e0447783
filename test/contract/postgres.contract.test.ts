import { PostgresEngine } from '../../src/search/postgres-engine.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { engineContract } from './engine-contract.js';

engineContract('postgres', async () => {
  const database = await createTestDatabase();
  await loadStockFixture(database.handle.db);
  return { engine: new PostgresEngine(database.handle.db), close: () => database.drop() };
});
