// Which part of the repository may import which (docs/contributors/architecture.md draws the same picture).
// `npm run lint` runs it; a forbidden import fails CI.
/** @type {import('dependency-cruiser').IConfiguration} */
const lib = (name) => `^libs/${name}/`;

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
    {
      name: 'contracts-import-other-libs',
      comment: 'libs/contracts is what crosses the wire; it stands on nothing else of ours.',
      severity: 'error',
      from: { path: lib('contracts') },
      to: { path: '^libs/', pathNot: lib('contracts') },
    },
    {
      name: 'config-imports-other-libs',
      comment: 'Configuration is read before anything else exists.',
      severity: 'error',
      from: { path: lib('config') },
      to: { path: '^libs/', pathNot: [lib('config'), lib('contracts')] },
    },
    {
      name: 'screening-imports-other-libs',
      comment: 'libs/screening is pure functions over the contracts: no I/O, no Nest, no other library of ours.',
      severity: 'error',
      from: { path: lib('screening') },
      to: { path: '^libs/', pathNot: [lib('screening'), lib('contracts')] },
    },
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
    {
      name: 'lower-libs-import-runtime',
      comment: 'libs/runtime starts a process from the other libraries; none of them may need it.',
      severity: 'error',
      from: { path: '^libs/', pathNot: lib('runtime') },
      to: { path: lib('runtime') },
    },
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
