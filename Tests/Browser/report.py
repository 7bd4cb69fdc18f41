"""How the browser checks report: a line per check, which the end-to-end tests count."""
import sys
import time
import traceback


def run(check, *arguments):
    """Runs one check; prints `ok NAME`, or `FAIL NAME: why` with the traceback on stderr.

    Returns whether it passed."""
    try:
        check(*arguments)
        print(f"ok {check.__name__}", flush=True)
        return True
    except Exception as error:
        print(f"FAIL {check.__name__}: {error}", flush=True)
        traceback.print_exc(file=sys.stderr)
        return False


def wait(condition, what, deadline):
    """Polls `condition()` until it is truthy and returns it; fails naming `what` after
    `deadline` seconds. An exception counts as not yet (a page may be between loads)."""
    end = time.monotonic() + deadline
    last = None
    while time.monotonic() < end:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:
            last = error
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
