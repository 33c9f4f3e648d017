// SharedIndexes names a catalogue by its content: a new array of the same documents keeps its index,
// a change of any searchable field builds a new one (the field list comes from SearchDocument's type,
// through SAME_FIELD), and no fingerprint text of the catalogue is kept.
import { describe, expect, it } from 'vitest';
import { SAME_FIELD } from '../core/search/fingerprint';
import { CHANGE_ONE, doc } from '../core/search/test-docs';
import type { Ranker, SearchDocument } from '../core/search/types';
import { SharedIndexes } from './searchIndexes';

/** A ranker whose builds are counted and whose index remembers what it was built over. */
function countingRanker(): Ranker & { built: (readonly SearchDocument[])[] } {
  const built: (readonly SearchDocument[])[] = [];
  return {
    id: 'counting',
    label: 'counting',
    built,
    build: (docs) => {
      built.push(docs);
      return { search: () => [] } as unknown as ReturnType<Ranker['build']>;
    },
  };
}

const catalogue = (): SearchDocument[] => [
  doc('deploy', 0, { parameterNames: ['target'], summary: 'Deploys an app', parameterDescriptions: ['Where it goes'] }),
  doc('rollback', 1, { summary: 'Rolls back a deploy' }),
];


describe('SharedIndexes', () => {
  it('keeps one index for a new array of the same documents', () => {
    const ranker = countingRanker();
    const indexes = new SharedIndexes([ranker]);
    const first = indexes.index(ranker, catalogue());
    expect(indexes.index(ranker, catalogue())).toBe(first);
    expect(indexes.catalogueId(catalogue())).toBe(indexes.catalogueId(catalogue()));
    expect(ranker.built).toHaveLength(1);
  });

  it('covers every field of a search document', () => {
    expect(Object.keys(CHANGE_ONE).sort()).toEqual(Object.keys(SAME_FIELD).sort());
  });

  it.each(Object.keys(CHANGE_ONE) as (keyof SearchDocument)[])('builds a new index when %s alone changes', (field) => {
    const ranker = countingRanker();
    const indexes = new SharedIndexes([ranker]);
    const before = catalogue();
    const after = [CHANGE_ONE[field](before[0] as SearchDocument), before[1] as SearchDocument];
    expect(after[0]?.[field]).not.toEqual(before[0]?.[field]);
    indexes.index(ranker, before);
    indexes.index(ranker, after);
    expect(ranker.built).toEqual([before, after]);
    expect(indexes.catalogueId(after)).not.toBe(indexes.catalogueId(before));
  });

  it('builds a new index when a document is added or removed', () => {
    const ranker = countingRanker();
    const indexes = new SharedIndexes([ranker]);
    indexes.index(ranker, catalogue());
    indexes.index(ranker, catalogue().slice(1));
    indexes.index(ranker, [...catalogue(), doc('status', 2)]);
    expect(ranker.built).toHaveLength(3);
  });

  it('gives a catalogue typed back to a recent content that content’s number', () => {
    const indexes = new SharedIndexes([]);
    const a = indexes.catalogueId(catalogue());
    const b = indexes.catalogueId([CHANGE_ONE.summary(catalogue()[0] as SearchDocument)]);
    expect(b).not.toBe(a);
    expect(indexes.catalogueId(catalogue())).toBe(a);
  });
});
