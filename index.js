// `electron .` (npm start, and the client entries the tray writes when run from a clone) loads
// index.js because package.json has no "main": a "main" would force npm to publish the Electron
// bundle in the roam-mcp package. Packaged builds get "main" from electron-builder.yml instead.
import './dist/main/main.mjs';
