"""The post-mortem report: one self-contained HTML file per run (``rlprobe report``)."""
from .render import render_report

__all__ = ["render_report"]
