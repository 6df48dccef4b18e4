"""Detector families, one module each; every module registers its detectors with
``rlprobe.doctor.catalog.detector`` when imported (``catalog.registry()`` imports them all)."""
