"""Group rules (群规则): detectors, the penalty ladder, admin commands, and the filter the bot runs first."""
