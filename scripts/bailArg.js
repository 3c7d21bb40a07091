'use strict';
/**
 * `--bail N`, `-b N`, `--bail=N` out of Jest's arguments into RECRUITING_BAIL (jest.config.js sets
 * `bail` from it): Jest 29 reads --bail as a flag, N as a test path filter and `--bail=N` as 0.
 */
function bailApart(args) {
	const rest = [];
	let n;
	for (let i = 0; i < args.length; i++) {
		const inline = /^--bail=(\d+)$/.exec(args[i]);
		if (inline) n = inline[1];
		else if ((args[i] === '--bail' || args[i] === '-b') && /^\d+$/.test(args[i + 1] ?? '')) n = args[++i];
		else rest.push(args[i]);
	}
	return { jestArgs: rest, bail: n };
}

module.exports = { bailApart };
