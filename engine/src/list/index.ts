export * from './columns';
export * from './cells';
