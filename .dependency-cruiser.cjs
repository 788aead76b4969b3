/**
 * `npm run boundaries`: the import rules between the parts (DESIGN: the engine is pure and
 * shared; server and web meet only through HTTP). The compiler cannot say which folder may
 * import which, so dependency-cruiser checks it on every CI run.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'engine-stays-pure',
      comment: 'The engine is shared by server and web: it may import neither, nor anything host-specific.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^(server|web|scripts|e2e|definitions)/' },
    },
    {
      name: 'engine-without-node',
      comment: 'The engine runs in the browser too: Node built-ins (node:fs, node:crypto…) belong to the server.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'web-not-server',
      comment: 'The web app talks to the server over HTTP; shared types and rules live in the engine.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(server|scripts|e2e)/' },
    },
    {
      name: 'web-app-not-node',
      comment: 'The definition loader reads files with node:fs: web tests may use it, the app may not.',
      severity: 'error',
      from: { path: '^web/', pathNot: '[.]test[.]tsx?$' },
      to: { path: '^definitions/' },
    },
    {
      name: 'server-not-web',
      comment: 'The server serves the built web app as files; it never imports its code.',
      severity: 'error',
      from: { path: '^(server|definitions)/' },
      to: { path: '^(web|e2e|scripts)/' },
    },
    {
      name: 'resolvable',
      comment: 'A relative import the cruiser cannot resolve would slip past the rules above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, path: '^[.]' },
    },
  ],
  options: {
    babelConfig: { fileName: require('node:path').join(__dirname, '.dependency-cruiser.babel.cjs') },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.json'],
    },
  },
};
