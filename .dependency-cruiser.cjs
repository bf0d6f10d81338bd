/** Import boundaries of docs/architecture.md: arrows point one way. */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'shared-is-a-leaf',
      comment: 'shared/ is imported by everyone and imports nothing of ours',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(web|server|cli|agent|e2e)/' },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(server|cli|agent)/' },
    },
    {
      name: 'server-not-web',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(web|cli|agent|e2e)/' },
    },
    {
      name: 'cli-only-shared',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^(web|server|agent)/' },
    },
    {
      name: 'agent-only-shared',
      comment:
        'the agent runs on provider hosts: it imports shared/ (the protocol) and nothing else of ours',
      severity: 'error',
      from: { path: '^agent/' },
      to: { path: '^(web|server|cli|e2e|scripts)/', pathNot: '^scripts/free-port\\.mjs$' },
    },
    {
      name: 'agent-tests-only-free-port',
      comment:
        "the agent's tests may pick a port outside the ephemeral range for a child they start (scripts/free-port.mjs); the agent itself may not import it",
      severity: 'error',
      from: {
        path: '^agent/',
        pathNot: '(\\.test\\.ts$|^agent/test/|^agent/container/(local-registry|test-store)\\.ts$)',
      },
      to: { path: '^scripts/' },
    },
    {
      name: 'driver-behind-its-seam',
      comment:
        'the agent runs instances through agent/driver.ts; only the composition root (agent/create-driver.ts) picks agent/qemu/ or agent/container/',
      severity: 'error',
      from: { path: '^agent/', pathNot: '^agent/(qemu/|create-driver\\.ts$)' },
      to: { path: '^agent/qemu/' },
    },
    {
      name: 'container-driver-behind-its-seam',
      comment:
        'as driver-behind-its-seam, for the container driver; the two drivers never import each other',
      severity: 'error',
      from: { path: '^agent/', pathNot: '^agent/(container/|create-driver\\.ts$)' },
      to: { path: '^agent/container/' },
    },
    {
      name: 'features-not-features',
      comment: 'a web feature never imports another feature; compose them in app/',
      severity: 'error',
      from: { path: '^web/features/([^/]+)/' },
      to: { path: '^web/features/([^/]+)/', pathNot: '^web/features/$1/' },
    },
    {
      name: 'lower-layers-not-app',
      severity: 'error',
      from: { path: '^web/(components|lib|features)/' },
      to: { path: '^web/app/' },
    },
    {
      name: 'modules-through-services',
      comment:
        'a server module reaches another module only through its service (or its pure presenter)',
      severity: 'error',
      from: { path: '^server/modules/([^/]+)/' },
      to: {
        path: '^server/modules/([^/]+)/(repo|routes|policy)',
        pathNot: '^server/modules/$1/',
      },
    },
    {
      name: 'routes-through-services',
      comment:
        'a route file gets what it needs from services on app.deps: it imports neither server/db/ nor a repo (docs/architecture.md)',
      severity: 'error',
      from: { path: '^server/modules/.+routes[.]ts$' },
      to: { path: ['^server/db/', '^server/modules/.+repo[.]ts$'] },
    },
    {
      name: 'lower-layers-not-modules',
      comment:
        'server/lib, plugins and db are below the modules (and the worker and composition root above them): the arrows run from the modules down, never back',
      severity: 'error',
      from: { path: '^server/(lib|plugins|db)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^server/(modules|worker|seed)/|^server/(deps|app|main)[.]ts$' },
    },
    {
      name: 'lib-not-plugins',
      comment:
        'server/lib and db are the foundation: request-side types (RequestAuth) live in plugins/, which imports lib/, not the other way',
      severity: 'error',
      from: { path: '^server/(lib|db)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^server/plugins/' },
    },
    {
      name: 'modules-not-composition',
      comment:
        'modules never import the composition root (deps.ts, app.ts, main.ts) or the worker that composes them; they get what they need from their own imports or app.deps',
      severity: 'error',
      from: {
        path: '^server/modules/',
        pathNot: '[.]test[.]ts$|^server/modules/public-api/document[.]ts$',
      },
      to: { path: '^server/(deps|main)[.]ts$|^server/worker/' },
    },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|dist)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
