// Node.js: Math.random, crypto, clocks, a timer and a thread-pool job (fs + crypto.pbkdf2).
const crypto = require('crypto');
const fs = require('fs');
const out = [Math.random(), crypto.randomBytes(4).toString('hex'), Date.now(), process.pid];
setTimeout(() => {
  crypto.pbkdf2('weft', crypto.randomBytes(8), 1000, 8, 'sha256', (err, key) => {
    fs.readFile(__filename, (e, data) => {
      out.push(key.toString('hex'), data.length, Date.now());
      console.log(out.join(' '));
    });
  });
}, 25);
