// Starts s3rver for Strata's remote tests: 127.0.0.1, a free port written to the port file,
// buckets named on the command line, data in the given folder.
//   node s3rver_start.js <s3rver module dir> <data dir> <port file> <bucket>...
'use strict';
const fs = require('fs');
const [moduleDir, directory, portFile, ...buckets] = process.argv.slice(2);
const S3rver = require(moduleDir);

// s3rver 3.7.1 lists a delimited prefix wrongly: a folder whose objects all sit one level deeper
// (root/datasets/v1/info.json under prefix root/) never shows up among the common prefixes, as
// S3 shows it. The tests list such folders (Shardlake roots, ZDS datasets), so listings with a
// delimiter are grouped here from the full listing, the way S3 answers them.
const FilesystemStore = require(moduleDir + '/lib/stores/filesystem');
const listAll = FilesystemStore.prototype.listObjects;
FilesystemStore.prototype.listObjects = async function (bucket, options) {
  if (!options.delimiter) {
    return listAll.call(this, bucket, options);
  }
  const all = await listAll.call(this, bucket, { ...options, delimiter: '', maxKeys: Infinity });
  const prefix = options.prefix || '';
  const maxKeys = options.maxKeys === undefined ? Infinity : options.maxKeys;
  const commonPrefixes = new Set();
  const objects = [];
  let isTruncated = false;
  for (const object of all.objects) {
    const rest = object.key.slice(prefix.length);
    const at = rest.indexOf(options.delimiter);
    if (at !== -1) {
      commonPrefixes.add(prefix + rest.slice(0, at + options.delimiter.length));
    } else if (objects.length < maxKeys) {
      objects.push(object);
    } else {
      isTruncated = true;
      break;
    }
  }
  return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated };
};
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
