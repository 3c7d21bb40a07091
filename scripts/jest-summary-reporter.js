'use strict';
/**
 * The Jest reporter of `npm test` (scripts/test.js): one line per test file, and for a failing one
 * its failures (assertion, diff, stack), written to the file descriptor named by
 * RECRUITING_TEST_SUMMARY_FD. Jest's own output, console logs of passing tests included, goes to
 * the full log (build/test.log) instead. Without that variable it writes nothing.
 */
const fs = require('fs');
const path = require('path');

class SummaryReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
		const fd = Number(process.env.RECRUITING_TEST_SUMMARY_FD);
		this.fd = Number.isInteger(fd) && fd > 2 ? fd : undefined;
		// Which of `npm test`'s runs at once this is (unit, n8n), if more than one.
		this.label = process.env.RECRUITING_TEST_SUMMARY_LABEL;
	}

	write(text) {
		if (this.fd !== undefined) fs.writeSync(this.fd, text.endsWith('\n') ? text : `${text}\n`);
	}

	onTestFileResult(test, result) {
		const file = path.relative(this.rootDir, result.testFilePath);
		const seconds = ((result.perfStats.end - result.perfStats.start) / 1000).toFixed(1);
		const counts = [
			result.numFailingTests && `${result.numFailingTests} failed`,
			`${result.numPassingTests} passed`,
			result.numPendingTests && `${result.numPendingTests} skipped`,
		].filter(Boolean);
		const failed = result.numFailingTests > 0 || result.testExecError;
		this.write(`${failed ? 'FAIL' : 'PASS'} ${file}  ${counts.join(', ')} (${seconds} s)`);
		if (result.testExecError) {
			this.write(indent(result.testExecError.stack || result.testExecError.message));
		} else if (result.numFailingTests > 0 && result.failureMessage) {
			this.write(result.failureMessage);
		}
	}

	onRunComplete(_contexts, results) {
		const seconds = ((Date.now() - results.startTime) / 1000).toFixed(0);
		this.write(
			`jest${this.label ? ` (${this.label})` : ''}: ${results.numPassedTests} passed, ${results.numFailedTests} failed in ${results.numTotalTestSuites} files (${seconds} s)`,
		);
	}
}

function indent(text) {
	return String(text)
		.split('\n')
		.map((line) => `    ${line}`)
		.join('\n');
}

module.exports = SummaryReporter;
