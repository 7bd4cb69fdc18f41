"""How the browser checks report: a line per check, which the end-to-end tests count."""
import sys
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
