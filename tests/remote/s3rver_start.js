// Starts s3rver for Strata's remote tests: 127.0.0.1, a free port written to the port file,
// buckets named on the command line, data in the given folder.
//   node s3rver_start.js <s3rver module dir> <data dir> <port file> <bucket>...
'use strict';
const fs = require('fs');
const [moduleDir, directory, portFile, ...buckets] = process.argv.slice(2);
const S3rver = require(moduleDir);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  vhostBuckets: false,
  configureBuckets: buckets.map((name) => ({ name })),
});
server.run().then((address) => {
  fs.writeFileSync(portFile + '.tmp', String(address.port));
  fs.renameSync(portFile + '.tmp', portFile);
}, (error) => {
  console.error(error);
  process.exit(1);
});
process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));
