// The areas mutation testing covers (issue 25): what each mutates and which tests it runs.
// A test outside an area's own folder does not count for it: the area's own tests must catch its bugs.
// Left out: tasks/metatool.test.ts, an agreement test over MetaTool's data (20 s a run, most of the
// folder's mutants would rerun it); its figures are eval's, not an outcome rule's.
export const MUTATE_AREAS = {
  turn: { mutate: ['src/core/turn/**/*.ts', '!src/core/turn/**/*.test.ts', '!src/core/turn/test-kit.ts'], tests: ['src/core/turn/**/*.test.ts'] },
  stream: { mutate: ['src/core/stream/**/*.ts', '!src/core/stream/**/*.test.ts'], tests: ['src/core/stream/**/*.test.ts'] },
  tasks: { mutate: ['src/core/tasks/**/*.ts', '!src/core/tasks/**/*.test.ts'], tests: ['src/core/tasks/**/*.test.ts', '!src/core/tasks/metatool.test.ts'] },
  security: { mutate: ['src/bridge/security.ts'], tests: ['src/bridge/security*.test.ts'] },
};
