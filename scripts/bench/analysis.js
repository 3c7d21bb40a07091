'use strict';
/** The hand-written part of BENCHMARKS.md: where the time goes (from profiling during development). */
module.exports.ANALYSIS = `## Analysis

(to be written)
`;
