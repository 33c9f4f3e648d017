import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import MiniSearch from 'minisearch';
import type { MiniSearchDocument } from './minisearch-options';
import { buildCatalogueIndex, buildIndex, loadBuiltIndex, toMiniSearchDocument, MAX_TOKEN_LENGTH, MINISEARCH_OPTIONS, processTerm, scanTokens, tokenize, tokenizeByRegex } from './minisearch-options';
import { hashRange } from './token-table';
import { termIndex } from './minisearch-internals';
import { PostingList } from './postings';
import { porterStem } from './stemmer';

describe('tokenize', () => {
  const rows: [string, string[]][] = [
    ['list_workflow_runs', ['list', 'workflow', 'runs']],
    ['send-slack-message', ['send', 'slack', 'message']],
    ['getWeatherForecast', ['getWeatherForecast', 'get', 'Weather', 'Forecast']],
    ['repo.list', ['repo', 'list']],
    ['pull_request.read', ['pull', 'request', 'read']],
    ['owner/repo', ['owner', 'repo']],
    ['get_fileContents', ['get', 'fileContents', 'file', 'Contents']],
    ['getURLForID', ['getURLForID', 'get', 'URL', 'For', 'ID']],
    ["user's", ['user', 's']],
    ['HTTPServerError', ['HTTPServerError', 'HTTP', 'Server', 'Error']],
    ['parseJSON', ['parseJSON', 'parse', 'JSON']],
    ['base64 s3 mp3Player', ['base64', 'base', '64', 's3', 's', '3', 'mp3Player', 'mp', '3', 'Player']],
    ['Hello, world! (v2.0)', ['Hello', 'world', 'v2', 'v', '2', '0']],
    ['搜索关键词', ['搜索', '索关', '关键', '键词']],
    ['必', ['必']],
    ['MCP服务器 tools', ['MCP服务器', 'MCP', '服务', '务器', 'tools']],
    ['café naïve', ['café', 'naïve']],
    ['', []],
    ['  ...  ', []],
  ];
  for (const [text, tokens] of rows) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(tokens)}`, () => {
      expect(tokenize(text)).toEqual(tokens);
    });
  }

  it(`cuts tokens at ${MAX_TOKEN_LENGTH} characters`, () => {
    expect(tokenize('x'.repeat(10_000))).toEqual(['x'.repeat(MAX_TOKEN_LENGTH)]);
  });
});

describe('tokenize, scanning ASCII by character code, gives the tokens of the regular expressions', () => {
  // Identifier-like ASCII, with some of everything else: accents, combining marks, CJK, title case,
  // non-ASCII digits, astral characters and lone surrogates.
  const unit = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'z', 'A', 'B', 'Z', '0', '7', '_', '-', ' ', '.', '/', '\u0000') },
    { weight: 1, arbitrary: fc.constantFrom('é', 'É', '\u0301', 'ß', 'ǅ', '²', '٣', '搜', '索', 'ア', '한', '\u{1F600}', '\uD800', '\uDC00', '\u00A0', '—') },
  );
  const texts = fc.oneof(
    fc.string({ unit, maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', 'B', 'C', '1', 'x'), minLength: 50, maxLength: 150 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  );

  it('on random strings', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(tokenize(text)).toEqual(tokenizeByRegex(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('hands each hashed range the hash of its text (the token table finds a token by it)', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const hashed: string[] = [];
        scanTokens(text, {
          range: () => undefined,
          token: () => undefined,
          hashedRange: (t, start, end, hash) => {
            expect(hash).toBe(hashRange(t, start, end));
            hashed.push(t.slice(start, end));
          },
        });
        // In ASCII text, every single-part word of up to MAX_TOKEN_LENGTH characters comes hashed.
        if (![...text].some((c) => c.charCodeAt(0) >= 128)) {
          expect(hashed).toEqual(text.split(/[^A-Za-z0-9]+/).filter((w) => /^([a-z]+|[A-Z][a-z]*|[A-Z]+|[0-9]+)$/.test(w) && w.length <= MAX_TOKEN_LENGTH));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('on the table above and on long chunks', () => {
    for (const text of ['HTTPServerError', 'ABCd', 'AB', 'Ab', 'a1B2cD', 'x'.repeat(70), `${'aB'.repeat(40)} tail`, 'MCP服务器 tools']) {
      expect(tokenize(text)).toEqual(tokenizeByRegex(text));
    }
  });
});

describe('processTerm', () => {
  const rows: [string, string | null][] = [
    ['The', null],
    ['and', null],
    ['x', null],
    ['7', '7'],
    ['Searching', 'search'],
    ['searches', 'search'],
    ['Repositories', 'repositori'],
    ['repository', 'repositori'],
    ['PDF', 'pdf'],
    ['now', 'now'],
    ['必', '必'],
  ];
  for (const [term, processed] of rows) {
    it(`${JSON.stringify(term)} → ${JSON.stringify(processed)}`, () => {
      expect(processTerm(term)).toBe(processed);
    });
  }
});

describe('porterStem', () => {
  const rows: [string, string][] = [
    ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['agreed', 'agre'], ['motoring', 'motor'],
    ['hopping', 'hop'], ['filing', 'file'], ['happy', 'happi'], ['relational', 'relat'], ['generalization', 'gener'],
    ['hopeful', 'hope'], ['goodness', 'good'], ['adjustment', 'adjust'], ['adoption', 'adopt'], ['controll', 'control'],
    ['yelling', 'yell'], ['sky', 'sky'],
  ];
  for (const [word, stem] of rows) {
    it(`${word} → ${stem}`, () => {
      expect(porterStem(word)).toBe(stem);
    });
  }
  it('leaves non-ASCII, very short and very long words alone', () => {
    expect(porterStem('größe')).toBe('größe');
    expect(porterStem('is')).toBe('is');
    expect(porterStem('s'.repeat(40))).toBe('s'.repeat(40));
  });
});

describe('buildIndex', () => {
  const text = fc.string({ unit: fc.constantFrom('get', 'Weather', 'list', 'runs', 'run', 'a', 'the', ' ', '_', '-', 'é', '搜索', 'X1'), maxLength: 12 });
  const docs = fc.array(
    fc.record({ name: text, parameter_name: text, summary: text, description: text, parameter_description: text }),
    { maxLength: 20 },
  ).map((ds): MiniSearchDocument[] => ds.map((d, id) => ({ id, ...d })));

  it("builds MiniSearch's own index, and counts document frequencies as a loaded index does", () => {
    fc.assert(
      fc.property(docs, (ds) => {
        const built = buildIndex(ds);
        const plain = new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
        plain.addAll(ds);
        const json = JSON.stringify(built.mini);
        expect(json).toBe(JSON.stringify(plain));
        const loaded = loadBuiltIndex(json);
        for (const d of ds) {
          for (const token of tokenize(Object.values(d).join(' '))) {
            const term = processTerm(token);
            if (term !== null) expect(built.documentFrequency(term)).toBe(loaded.documentFrequency(term));
          }
        }
        expect(built.documentFrequency('absent')).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("builds MiniSearch's own index when documents lack fields (their field lengths have holes, or none)", () => {
    const maybe = fc.option(text, { nil: undefined, freq: 2 });
    const sparse = fc
      .array(fc.record({ name: maybe, parameter_name: maybe, summary: maybe, description: maybe, parameter_description: maybe }), { maxLength: 12 })
      .map((ds) => ds.map((d, id) => ({ id, ...d }) as unknown as MiniSearchDocument));
    fc.assert(
      fc.property(sparse, (ds) => {
        const plain = new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
        plain.addAll(ds);
        expect(JSON.stringify(buildIndex(ds).mini)).toBe(JSON.stringify(plain));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps MiniSearch's index through add, remove, discard and vacuum (postings are PostingLists)", async () => {
    await fc.assert(
      fc.asyncProperty(docs, fc.array(fc.nat(), { maxLength: 6 }), async (ds, picks) => {
        const built = buildIndex([]).mini;
        const plain = new MiniSearch<MiniSearchDocument>({ ...MINISEARCH_OPTIONS, autoVacuum: false });
        for (const d of ds) {
          built.add(d);
          plain.add(d);
        }
        expect(JSON.stringify(built)).toBe(JSON.stringify(plain));
        const gone = new Set<number>();
        picks.forEach((pick, i) => {
          const d = ds[pick % Math.max(1, ds.length)];
          if (!d || gone.has(d.id)) return;
          gone.add(d.id);
          if (i % 2 === 0) {
            built.remove(d);
            plain.remove(d);
          } else {
            built.discard(d.id);
            plain.discard(d.id);
          }
        });
        await Promise.all([built.vacuum(), plain.vacuum()]);
        expect(JSON.stringify(built)).toBe(JSON.stringify(plain));
        // A document added back after removal lands as it does in MiniSearch.
        for (const id of gone) {
          const d = ds.find((x) => x.id === id);
          if (!d) continue;
          built.add(d);
          plain.add(d);
        }
        expect(JSON.stringify(built)).toBe(JSON.stringify(plain));
      }),
      { numRuns: 150 },
    );
  });

  it('builds the same index when a term occurs more often in one field than a byte counts (frequencies kept in Int32 then)', () => {
    for (const times of [254, 255, 256, 300]) {
      const docs = [
        { name: 'deploy_app', order: 0, parameterNames: ['env'], summary: '', description: `${'deploy '.repeat(times)}now`, parameterDescriptions: ['where'] },
        { name: 'list_apps', order: 1, parameterNames: [], summary: 'Lists apps.', description: 'deploy list', parameterDescriptions: [] },
      ];
      const plain = new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
      plain.addAll(docs.map(toMiniSearchDocument));
      const built = buildCatalogueIndex(docs).mini;
      expect(JSON.stringify(built)).toBe(JSON.stringify(plain));
      const postings = termIndex(built).get('deploy')?.get(3);
      expect(postings).toBeInstanceOf(PostingList);
      expect((postings as PostingList).freqs).toBeInstanceOf(times < 256 ? Uint8Array : Int32Array);
    }
  });

  it('builds the same index from catalogue documents in place (list fields scanned part by part)', () => {
    const list = fc.array(text, { maxLength: 4 });
    const catalogue = fc.array(fc.record({ name: text, parameterNames: list, summary: text, description: text, parameterDescriptions: list, withSummary: fc.boolean() }), { maxLength: 20 });
    fc.assert(
      fc.property(catalogue, (ds) => {
        // Half the time the description starts with the summary, as an MCP tool's does.
        const docs = ds.map(({ withSummary, ...d }, order) => ({ ...d, order, description: withSummary ? `${d.summary}. ${d.description}` : d.description }));
        const plain = new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
        plain.addAll(docs.map(toMiniSearchDocument));
        expect(JSON.stringify(buildCatalogueIndex(docs).mini)).toBe(JSON.stringify(plain));
      }),
      { numRuns: 300 },
    );
  });
});
