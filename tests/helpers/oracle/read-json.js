// SPDX-License-Identifier: MIT
// node's JSON.parse over a file (argv[2])
const fs = require('fs');
process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))) + '\n');
