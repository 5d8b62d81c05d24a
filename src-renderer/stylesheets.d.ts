// Stylesheets are imported for their side effect; esbuild bundles them (scripts/build.mjs).
declare module '*.css';
