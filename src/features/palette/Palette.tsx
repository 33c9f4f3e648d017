// The command palette (Ctrl/⌘+K): every registered command, filtered as you type.
import { useState } from 'react';
import { useCommands } from '../../commands/context';
import { shortcutLabel } from '../../commands/registry';
import { useWorkbench, useWorkbenchStore } from '../../state/context';

export function Palette() {
  const open = useWorkbench((s) => s.paletteOpen);
  const setOpen = useWorkbench((s) => s.setPaletteOpen);
  const store = useWorkbenchStore();
  const registry = useCommands();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  if (!open) return null;
  // Listed afresh on every render: the command sources (one per recent document) follow the state.
  const q = query.toLowerCase();
  const items = registry.list({ store }).filter((c) => c.title.toLowerCase().includes(q) || c.id.includes(q));
  const close = () => {
    setOpen(false);
    setQuery('');
    setActive(0);
  };
  const run = (i: number) => {
    const c = items[i];
    close();
    if (c) void c.run({ store });
  };
  return (
    <div className="palette-backdrop" onMouseDown={close}>
      <div className="palette" role="dialog" aria-label="Command palette" aria-modal="true" onMouseDown={(e) => e.stopPropagation()}>
        <input
          autoFocus
          aria-label="Command"
          placeholder="Type a command…"
          value={query}
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={items[active] ? `cmd-${items[active].id}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
            else if (e.key === 'ArrowDown') setActive((a) => Math.min(items.length - 1, a + 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
            else if (e.key === 'Enter') run(active);
            else return;
            e.preventDefault();
          }}
        />
        <ul id="palette-list" role="listbox" aria-label="Commands">
          {items.map((c, i) => (
            <li key={c.id} id={`cmd-${c.id}`} role="option" aria-selected={i === active} onMouseEnter={() => setActive(i)} onClick={() => run(i)}>
              <span>{c.title}</span>
              {c.shortcut && <kbd>{shortcutLabel(c.shortcut)}</kbd>}
            </li>
          ))}
          {items.length === 0 && <li aria-disabled="true">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}
