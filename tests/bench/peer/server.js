// server.js: the peer's server, configured as boardgame.io's docs say for
// production (Server() with the game, origins, and a database: its default
// in-memory storage, or its durable FlatFile storage), listening on
// 127.0.0.1 only.
//
//   node server.js PORT memory
//   node server.js PORT flatfile DIR
//
// Prints "peer: listening on PORT" once the server answers.
'use strict';

const { Server, Origins, FlatFile } = require('boardgame.io/server');
const game = require('./game');

const port = Number(process.argv[2]);
const storage = process.argv[3] || 'memory';
if (!Number.isInteger(port) || port <= 0) {
	console.error('usage: node server.js PORT memory|flatfile [DIR]');
	process.exit(2);
}

const opts = { games: [game], origins: [Origins.LOCALHOST] };
if (storage === 'flatfile') {
	if (!process.argv[4]) {
		console.error('flatfile needs a directory');
		process.exit(2);
	}
	// As in boardgame.io's storage docs: a directory, no logging, no ttl.
	opts.db = new FlatFile({ dir: process.argv[4], logging: false, ttl: false });
} else if (storage !== 'memory') {
	console.error('storage: memory or flatfile');
	process.exit(2);
}

const server = Server(opts);
// server.run() listens on every interface: bind the same server to
// 127.0.0.1 only (koa-socket-2 routes app.listen to the http server).
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, cb) => listen(p, '127.0.0.1', cb);
server.run({ port, callback: () => console.log(`peer: listening on ${port} (${storage})`) });

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
