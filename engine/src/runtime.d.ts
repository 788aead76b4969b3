/**
 * The engine is compiled without DOM or Node types (engine/tsconfig.json), so that nothing
 * tied to one host creeps in. What it may use beyond ES2022 is declared here: only globals
 * every host it runs in provides (browsers, Node >= 17, workers).
 */

/** WHATWG structured clone, a global in browsers and in Node. */
declare function structuredClone<T>(value: T): T;
