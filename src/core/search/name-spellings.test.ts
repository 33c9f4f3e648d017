// A tool's name is found by any spelling of it: snake_case, camelCase, PascalCase, kebab-case, dotted
// or plain words, whichever the tool and the searcher wrote. The tokenizer splits every style into
// the same words, and a camelCase compound also keeps its whole form (minisearch-options.test.ts),
// so the tool whose name holds all the words ranks first, among tools that share some of them.
import { describe, expect, it } from 'vitest';
import { buildBm25Index } from './bm25';
import { all, doc } from './test-docs';

// Each tool shares words with others, so a spelling that lost a word would rank another first.
const CATALOGUE = [
  doc('get_file_contents', 0, { summary: 'Read a file of a repository.' }),
  doc('getFileHistory', 1, { summary: 'The commits that touched a file.' }),
  doc('repo.list', 2, { summary: 'Repositories you can read.' }),
  doc('list-repo-branches', 3, { summary: 'Branches of a repository.' }),
  doc('CreatePullRequest', 4, { summary: 'Open a pull request.' }),
  doc('pull_request_read', 5, { summary: 'Read a pull request.' }),
  doc('contents', 6, { summary: 'A directory listing.' }),
];

const SPELLINGS: readonly (readonly [string, readonly string[]])[] = [
  ['get_file_contents', ['get_file_contents', 'getFileContents', 'GetFileContents', 'get-file-contents', 'get.file.contents', 'get file contents', 'GET_FILE_CONTENTS']],
  ['getFileHistory', ['getFileHistory', 'get_file_history', 'get-file-history', 'file history']],
  ['repo.list', ['repo.list', 'repo_list', 'repoList', 'list repo']],
  ['list-repo-branches', ['list-repo-branches', 'list_repo_branches', 'listRepoBranches', 'repo branches']],
  ['CreatePullRequest', ['CreatePullRequest', 'create_pull_request', 'createPullRequest', 'create pull request', 'create-pull-request']],
  ['pull_request_read', ['pull_request_read', 'pullRequestRead', 'read pull request']],
];

describe('a tool is found first by any spelling of its name', () => {
  const index = buildBm25Index(CATALOGUE);
  for (const [name, spellings] of SPELLINGS) {
    for (const query of spellings) {
      it(`${JSON.stringify(query)} finds ${name} first`, () => {
        expect(index.search(query, { filter: all })[0]?.name).toBe(name);
      });
    }
  }
});
