// The worker thread's program, as text: it holds one parser instance and answers parse requests by
// id. It is plain CommonJS run with `eval` so the same code works from dist/ and under the test
// runner; the parser module's path is resolved by the main thread and handed over.
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const create = require(workerData.parserPath);
const ready = create();
const METHODS = { select: 'parseSelect', expr: 'parseExpr' };
parentPort.on('message', async ({ id, kind, text }) => {
  let parser;
  try {
    parser = await ready;
    parentPort.postMessage({ id, json: parser[METHODS[kind]](text, false) });
  } catch (error) {
    // A WebAssembly trap leaves the instance broken for good: the main thread replaces this worker.
    parentPort.postMessage({ id, crashed: String((error && error.message) || error).slice(0, 200) });
  }
});
`;
