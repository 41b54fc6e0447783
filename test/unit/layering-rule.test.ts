import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering of src/ is a lint rule (eslint.config.js): imports run down the layers. Each case
 * lints a line as if it stood in that file of the tree, through the project's own configuration.
 */
describe('imports run one way (eslint.config.js)', () => {
  const eslint = new ESLint();
  const restricted = async (filePath: string, source: string) => {
    const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it('refuses an import that runs back up the layers', async () => {
    expect(
      await restricted('src/http/probe.ts', "import { x } from '../accounts/authenticator.js';"),
    ).toHaveLength(1);
    expect(
      await restricted('src/limits/probe.ts', "import { x } from '../accounts/credentials.js';"),
    ).toHaveLength(1);
    expect(await restricted('src/db/probe.ts', "import { x } from '../search/engine.js';")).toHaveLength(1);
    expect(await restricted('src/accounts/probe.ts', "import { x } from '../http/route.js';")).toHaveLength(
      1,
    );
    expect(await restricted('src/search/probe.ts', "import { x } from '../services.js';")).toHaveLength(1);
    expect(
      await restricted('src/search/probe.ts', "import { x } from '../../indexer/cluster.js';"),
    ).toHaveLength(1);
  });

  it('lets imports run down, and a module\u2019s routes reach the HTTP layer', async () => {
    expect(await restricted('src/http/probe.ts', "import { x } from '../principal.js';")).toEqual([]);
    expect(await restricted('src/accounts/probe.ts', "import { x } from '../db/database.js';")).toEqual([]);
    expect(await restricted('src/accounts/probe.routes.ts', "import { x } from '../http/route.js';")).toEqual(
      [],
    );
    expect(await restricted('src/app.ts', "import { x } from './accounts/auth.routes.js';")).toEqual([]);
  });
});
