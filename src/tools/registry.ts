import type { SearchEngine } from '../search/engine.js';
import { identifyPartTool } from './identify-part.js';
import type { AnyTool } from './tool.js';

/** The tools the service runs, by slug. */
export type ToolRegistry = Map<string, AnyTool>;

/** The registry: every tool, searching stock with the engine. */
export function toolRegistry(engine: SearchEngine): ToolRegistry {
  const tools: AnyTool[] = [identifyPartTool(engine)];
  return new Map(tools.map((t) => [t.slug, t]));
}
