// Mocha reporter: the usual `spec` output, plus the totals as JSON in $PROMPTREEL_STATS_FILE for scripts/test-all.js.
const fs = require('fs');
const Mocha = require('mocha');

class StatsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const file = process.env.PROMPTREEL_STATS_FILE;
      if (!file) return;
      const { passes, failures, pending } = this.stats;
      fs.writeFileSync(file, `${JSON.stringify({ passes, failures, pending })}\n`);
    });
  }
}

module.exports = StatsReporter;
