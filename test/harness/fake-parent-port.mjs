// Loaded with --import into a roam-mcp child: stands in for Electron's utilityProcess
// `process.parentPort` (postMessage / on('message', ({data}) => ...)) on top of Node's IPC
// channel, wrapping what the child posts so the test can tell which path was used.
process.parentPort = {
  postMessage: (message) => process.send({ viaParentPort: message }),
  on: (event, listener) => {
    if (event === 'message') process.on('message', (data) => listener({ data }));
  },
};
