"""Errors the doctor raises for input it cannot use; the CLI prints them as one line, exit 2."""


class UnusableInput(ValueError):
    """A run, config or argument the doctor cannot work with; the message says what to do."""


class ConfigError(UnusableInput):
    """``doctor.toml`` (or a config dict) names an unknown detector or key, or a bad value."""


class UnknownMetric(KeyError, UnusableInput):
    """A metric the run does not have; the message lists the closest names."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])
