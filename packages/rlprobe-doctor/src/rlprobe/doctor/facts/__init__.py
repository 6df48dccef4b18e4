"""Facts about a run that several detectors reason from, computed from the view and shared: which
metric stands for what and the token budget (``metrics``), how the reward progressed
(``progress``), and what the captured groups of completions say (``groups``). Detectors import
these and the statistics toolkit, never each other."""
