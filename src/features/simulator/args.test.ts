// The simulated call's JSON and the "Run on the server" form are one value: the text the user typed.
// The form reads it and writes it back without losing anything it does not show.
import { describe, expect, it } from 'vitest';
import { formValuesOf, textOfForm } from './args';
import { withKey } from './schemaForm';

describe('the call arguments shared by the simulated call and the server form', () => {
  it('the form shows what was typed as JSON (an empty text is no arguments)', () => {
    expect(formValuesOf('{"path": "/tmp/a.txt", "head": 3}')).toEqual({ path: '/tmp/a.txt', head: 3 });
    expect(formValuesOf('   ')).toEqual({});
  });

  it('text the form cannot show (not JSON, not an object) gives no values, so the form never overwrites it', () => {
    expect(formValuesOf('{"path": "/tmp/a.t')).toBeUndefined();
    expect(formValuesOf('[1, 2]')).toBeUndefined();
    expect(formValuesOf('"path"')).toBeUndefined();
  });

  it('a form edit keeps the keys the form has no field for', () => {
    const typed = '{"path": "/tmp/a.txt", "extra": {"deep": [1, null]}, "head": 3}';
    const values = formValuesOf(typed);
    if (!values) throw new Error('the typed text parses');
    const text = textOfForm(withKey(values, 'path', '/tmp/b.txt'));
    expect(JSON.parse(text)).toEqual({ path: '/tmp/b.txt', extra: { deep: [1, null] }, head: 3 });
  });
});
