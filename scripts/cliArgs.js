'use strict';
/**
 * Command-line options of the scripts: Node's `util.parseArgs`, strict (an unknown flag or a
 * stray argument throws), with `--help`/`-h` printing the script's header comment, which is
 * where each script documents its options.
 */
const fs = require('fs');
const { parseArgs } = require('util');

/** `options` as util.parseArgs takes them; returns its `values`, or prints the help and exits. */
function parseCliArgs(scriptFile, options, args = process.argv.slice(2)) {
	let values;
	try {
		({ values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true }));
	} catch (e) {
		process.stderr.write(`${e.message} (see --help)\n`);
		process.exit(2);
	}
	if (values.help) {
		process.stdout.write(fs.readFileSync(scriptFile, 'utf8').split('*/')[0] + '*/\n');
		process.exit(0);
	}
	delete values.help;
	return values;
}

module.exports = { parseCliArgs };
