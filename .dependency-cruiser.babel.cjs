/**
 * How dependency-cruiser reads TypeScript: the project's TypeScript 7 has no compiler API for
 * it, so Babel strips the types (and JSX) first. An import used as a type alone still counts;
 * only an explicit `import type` escapes these rules.
 */
module.exports = {
  babelrc: false,
  configFile: false,
  presets: [[require('@babel/preset-typescript'), { onlyRemoveTypeImports: true }]],
  plugins: [[require('@babel/plugin-transform-react-jsx'), { runtime: 'classic' }]],
};
