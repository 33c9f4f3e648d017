// Drag a scenario file anywhere onto the page to open it.
import { useEffect, useState } from 'react';
import { useWorkbenchStore } from '../../state/context';
import { openScenarioFile } from './files';
import { isCatalogueFile, openCatalogueFile } from '../../state/importSlice';

export function DropZone() {
  const store = useWorkbenchStore();
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth += 1;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = 0;
      setOver(false);
      // A workspace folder or .zip was taken by the workspace feature's drop handler (capture phase).
      if (e.defaultPrevented) return;
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      // A .json file is an MCP catalogue: it goes to the import dialog.
      if (file && isCatalogueFile(file)) void openCatalogueFile(store, file);
      else if (file) void openScenarioFile(store, file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [store]);
  return over ? <div className="drop-overlay">Drop a scenario file to open it, an MCP catalogue (.json) to import it, or a .jp folder or .zip to open a workspace</div> : null;
}
