import { identifyPartTool, type IdentifyPartDeps } from './identify-part.js';
import type { AnyTool } from './tool.js';

/** The tools the service runs, by slug. */
export type ToolRegistry = Map<string, AnyTool>;

/** The registry: every tool, searching stock with the engine and reading images with the reader. */
export function toolRegistry(deps: IdentifyPartDeps): ToolRegistry {
  const tools: AnyTool[] = [identifyPartTool(deps)];
  return new Map(tools.map((t) => [t.slug, t]));
}
