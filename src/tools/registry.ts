import type { SearchEngine } from '../search/engine.js';
import { identifyPartTool } from './identify-part.js';
import type { AnyTool } from './tool.js';

/** Every tool the service runs, by slug. */
export function toolRegistry(engine: SearchEngine): Map<string, AnyTool> {
  const tools: AnyTool[] = [identifyPartTool(engine)];
  return new Map(tools.map((t) => [t.slug, t]));
}
