// The fingerprint covers every searchable field: the list of fields is derived from SearchDocument's
// type (a table keyed by its keys), so a field added to the document without a case here fails to
// compile, and a field the fingerprint leaves out fails the test.
import { describe, expect, it } from 'vitest';
import { searchDocument } from '../catalogue/search-document';
import type { ToolDefinition } from '../catalogue/types';
import { catalogueFingerprint, FINGERPRINT_FIELDS } from './fingerprint';
import { CHANGE_ONE, doc } from './test-docs';
import type { SearchDocument } from './types';


const base = doc('deploy', 3, { parameterNames: ['target', 'force'], summary: 'Deploys an app', description: 'Deploys an app to a target', parameterDescriptions: ['Where it goes', 'Skip the checks'] });

describe('catalogueFingerprint', () => {
  it.each(Object.keys(CHANGE_ONE) as (keyof SearchDocument)[])('changes when %s alone changes', (field) => {
    const changed = CHANGE_ONE[field](base);
    expect(changed[field]).not.toEqual(base[field]);
    expect(catalogueFingerprint([base, doc('other', 4)])).not.toBe(catalogueFingerprint([changed, doc('other', 4)]));
  });

  it('reads every field a search document has', () => {
    const definition = { name: 'deploy', parameters: new Map([['target', {}]]), docs: { summary: 's', description: 'd', parameters: new Map([['target', { summary: 'a', description: 'b' }]]) } } as unknown as ToolDefinition;
    const built = searchDocument(definition, 0);
    expect(Object.keys(FINGERPRINT_FIELDS).sort()).toEqual(Object.keys(built).sort());
    expect(Object.keys(CHANGE_ONE).sort()).toEqual(Object.keys(built).sort());
  });

  it('does not take two lists that join alike for the same', () => {
    const a = doc('t', 0, { parameterDescriptions: ['a', 'b'] });
    const b = doc('t', 0, { parameterDescriptions: ['a\u0001b'] });
    expect(catalogueFingerprint([a])).not.toBe(catalogueFingerprint([b]));
  });
});
