// Which part of the repository may import which (docs/contributors/architecture.md draws the same picture).
// `npm run lint` runs it; a forbidden import fails CI.
const lib = (name) => `^libs/${name}/`;

/**
 * Which library may import which other library of ours: the "may import" column of
 * docs/contributors/architecture.md, which tools/architecture.spec.ts holds to this table. A
 * library missing here may import none.
 */
const LIBRARIES = {
  contracts: [],
  config: ['contracts'],
  crypto: ['contracts', 'config'],
  observability: ['contracts', 'config'],
  messaging: ['contracts', 'config', 'observability'],
  persistence: ['contracts', 'config', 'observability'],
  events: ['contracts', 'config', 'observability', 'messaging', 'persistence'],
  documents: ['contracts', 'crypto'],
  'rate-limit': [],
  mail: ['contracts'],
  screening: ['contracts'],
  runtime: ['contracts', 'config', 'observability', 'messaging', 'persistence'],
};

const LIBRARY_RULES = [
  ...Object.entries(LIBRARIES).map(([name, allowed]) => ({
    name: `${name}-imports-beyond-its-row`,
    comment: `libs/${name} may import ${allowed.join(', ') || 'no other library'} (docs/contributors/architecture.md).`,
    severity: 'error',
    from: { path: lib(name) },
    to: { path: '^libs/', pathNot: [name, ...allowed].map(lib) },
  })),
  {
    name: 'unlisted-library-imports-a-library',
    comment: 'A library gets its row in LIBRARIES (and the architecture page) before it imports another.',
    severity: 'error',
    from: { path: `^libs/(?!(?:${Object.keys(LIBRARIES).join('|')})/)([^/]+)/` },
    to: { path: '^libs/', pathNot: '^libs/$1/' },
  },
];

/**
 * An app that stands in layers (apps/applications): `domain/` (pure functions and types), `store/`
 * (its repositories), `clients/` (other services over the broker), `use-cases/` (services),
 * `transport/` (controllers). Arrows point down only: each folder may import those before it.
 */
const LAYERS = ['domain', 'store', 'clients', 'use-cases', 'transport'];

const LAYER_RULES = [
  ...LAYERS.slice(0, -1).map((layer, index) => ({
    name: `${layer}-imports-a-higher-layer`,
    comment: `An app's ${layer}/ may import only ${LAYERS.slice(0, index).join(', ') || 'libraries and config/'} of its layers.`,
    severity: 'error',
    from: { path: `^apps/([^/]+)/src/${layer}/` },
    to: { path: `^apps/$1/src/(${LAYERS.slice(index + 1).join('|')})/` },
  })),
  {
    name: 'controller-imports-a-controller',
    comment: 'A controller takes requests and hands them to use cases; what two share lives below them.',
    severity: 'error',
    from: { path: '\\.controller\\.ts$' },
    to: { path: '\\.controller\\.ts$' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */

module.exports = {
  forbidden: [
    {
      name: 'app-imports-another-app',
      comment: 'Apps talk over RabbitMQ, never through code: what they share lives in libs/.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'lib-imports-an-app',
      comment: 'Libraries serve every app and know none of them.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    ...LIBRARY_RULES,
    {
      name: 'screening-imports-packages',
      comment: 'libs/screening reads no file, network or clock and needs no framework: it imports no npm or Node module.',
      severity: 'error',
      from: { path: lib('screening'), pathNot: '\\.spec\\.ts$' },
      to: { path: '^node_modules/' },
    },
    {
      name: 'screening-imports-node',
      comment: 'See screening-imports-packages.',
      severity: 'error',
      from: { path: lib('screening'), pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    ...LAYER_RULES,
    {
      name: 'production-imports-test-code',
      comment: 'Apps and libs never depend on tests, test support or development tools.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '\\.(spec|testing)\\.ts$' },
      to: { path: ['^test/', '^tools/', '^bench/', '\\.spec\\.ts$', '\\.testing\\.ts$'] },
    },
    {
      name: 'bench-imports-tests',
      comment: 'The bench shares tools/ with the tests, not the tests themselves.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'client-imports-the-repository',
      comment: 'packages/client is published alone: it stands on its own files and its npm dependencies.',
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: '^(apps|libs|test|tools|bench|scripts)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^(dist|node_modules|coverage)/', '^packages/[^/]+/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

// The tables themselves, for tools/architecture.spec.ts (not enumerable: the config's schema knows no such keys).
Object.defineProperties(module.exports, { LIBRARIES: { value: LIBRARIES }, LAYERS: { value: LAYERS } });
