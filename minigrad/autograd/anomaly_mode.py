"""Anomaly detection: ``detect_anomaly()`` / ``set_detect_anomaly(True)``."""

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]

enabled = False
check_nan = True


def is_anomaly_enabled():
    return enabled


class detect_anomaly:
    """Within this block, backward names the node that produced NaN and its forward trace."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan

    def __enter__(self):
        global enabled, check_nan
        self._prev = (enabled, check_nan)
        enabled, check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc):
        global enabled, check_nan
        enabled, check_nan = self._prev
        return False


class set_detect_anomaly(detect_anomaly):
    """Turn anomaly mode on or off: at once when called, restored after a ``with`` block."""

    def __init__(self, mode, check_nan=True):
        global enabled
        self.check_nan = check_nan
        self._prev = (enabled, globals()["check_nan"])
        globals()["enabled"], globals()["check_nan"] = bool(mode), check_nan

    def __enter__(self):
        return self
