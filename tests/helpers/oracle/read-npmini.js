// SPDX-License-Identifier: MIT
// npm's own ini module (argv[2]) over a file (argv[3]): what npm reads
const ini = require(process.argv[2]);
const fs = require('fs');
process.stdout.write(JSON.stringify(ini.parse(fs.readFileSync(process.argv[3], 'utf8'))) + '\n');
