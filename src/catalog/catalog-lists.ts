import type { Labels } from './data/languages.js';
import { LANGUAGES } from './data/languages.js';
import { PART_GROUPS, PART_TYPES } from './data/part-classes.js';
import { locationLabel, SIDE_LABELS } from './data/part-positions.js';
import {
  CONDITIONS,
  FUELS,
  LABELLING_TYPES,
  LANGUAGE_NAMES,
  PACKAGING_TYPES,
  QUALITY_LEVELS,
} from './data/reference-lists.js';
import type { CatalogPart } from './parts-catalog.js';

/** The coded lists served by /data/catalog/<kind>. */
export const LIST_KINDS = [
  'types',
  'groups',
  'locations',
  'sides',
  'conditions',
  'quality',
  'packaging',
  'labelling',
  'fuels',
  'languages',
] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export interface ListEntry {
  kind: ListKind;
  code: string;
  sortOrder: number;
  name: Labels;
}

const entries = (kind: ListKind, list: { code: string; name: Labels }[]): ListEntry[] =>
  list.map((item, i) => ({ kind, code: item.code, sortOrder: i + 1, name: item.name }));

/** Every coded list; locations are the ones the parts use, labelled in each language. */
export function catalogLists(parts: CatalogPart[]): ListEntry[] {
  const locations = [...new Set(parts.map((p) => p.location).filter((l): l is string => l !== null))].sort();
  return [
    ...entries('types', PART_TYPES),
    ...entries('groups', PART_GROUPS),
    ...entries(
      'locations',
      locations.map((code) => ({
        code,
        name: Object.fromEntries(LANGUAGES.map((lang) => [lang, locationLabel(lang, code)])) as Labels,
      })),
    ),
    ...entries('sides', [
      { code: 'left', name: { ...SIDE_LABELS.left } },
      { code: 'right', name: { ...SIDE_LABELS.right } },
    ]),
    ...entries('conditions', CONDITIONS),
    ...entries('quality', QUALITY_LEVELS),
    ...entries('packaging', PACKAGING_TYPES),
    ...entries('labelling', LABELLING_TYPES),
    ...entries('fuels', FUELS),
    ...entries('languages', LANGUAGE_NAMES),
  ];
}
